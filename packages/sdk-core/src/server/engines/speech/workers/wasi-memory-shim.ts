/**
 * The few WASI preview1 calls Flite's `_start` makes, served from memory. Node's own `WASI` class
 * writes the output WAV through a real preopened directory and, in our measurements, one process
 * segfaulted after ~9 fresh instances with mixed voices; this shim keeps files in JS buffers, needs no
 * temp directory and lets every instance be garbage-collected like any other object.
 */

const ERRNO_SUCCESS = 0;
const ERRNO_BADF = 8;
const ERRNO_SPIPE = 70;
const PREOPEN_FD = 3;

class ProcessExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

interface MemoryFile {
  name: string;
  data: Uint8Array;
  size: number;
  position: number;
}

/** What a WASI command left behind. */
export interface WasiRunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Files the program created, by path. */
  files: Map<string, Uint8Array>;
}

/**
 * A WASI command instantiated ahead of use. Instantiation copies the module's data segments (Flite's
 * voices: ~20 MB, 15-40 ms here), so the worker prepares the next instance while idle and a request
 * pays only for the synthesis. An instance runs once (`_start` is a process entry point).
 *
 * @example
 * const command = new PreparedWasiCommand(module);
 * const result = command.run(['flite', '-t', 'Hello', '-o', 'out.wav']);
 * const wav = result.files.get('out.wav');
 */
export class PreparedWasiCommand {
  private readonly instance: WebAssembly.Instance;
  private argumentBytes: Uint8Array[] = [];
  private used = false;
  private readonly output: { files: Map<number, MemoryFile>; stdout: string; stderr: string };

  constructor(module: WebAssembly.Module) {
    const { instance, output, setArguments } = instantiate(module);
    this.instance = instance;
    this.output = output;
    this.setArguments = setArguments;
  }

  private readonly setArguments: (args: Uint8Array[]) => void;

  run(args: string[]): WasiRunResult {
    if (this.used) throw new Error('a WASI command instance runs only once');
    this.used = true;
    const encoder = new TextEncoder();
    this.argumentBytes = args.map((argument) => encoder.encode(`${argument}\0`));
    this.setArguments(this.argumentBytes);
    let exitCode = 0;
    try {
      (this.instance.exports._start as () => void)();
    } catch (error) {
      if (error instanceof ProcessExit) exitCode = error.code;
      else throw error;
    }
    const files = new Map<string, Uint8Array>();
    for (const file of this.output.files.values()) files.set(file.name, file.data.subarray(0, file.size));
    return { exitCode, stdout: this.output.stdout, stderr: this.output.stderr, files };
  }
}

/**
 * Instantiates a compiled WASI command and runs it once.
 *
 * @example
 * const result = runWasiCommand(module, ['flite', '-t', 'Hello', '-o', 'out.wav']);
 */
export function runWasiCommand(module: WebAssembly.Module, args: string[]): WasiRunResult {
  return new PreparedWasiCommand(module).run(args);
}

function instantiate(module: WebAssembly.Module) {
  let memory: WebAssembly.Memory | undefined;
  const view = () => new DataView(memory!.buffer);
  const bytes = () => new Uint8Array(memory!.buffer);
  const decoder = new TextDecoder();
  let argumentBytes: Uint8Array[] = [];
  const output = { files: new Map<number, MemoryFile>(), stdout: '', stderr: '' };
  const files = output.files;
  let nextFd = PREOPEN_FD + 1;

  const imports = {
    args_sizes_get(countPointer: number, sizePointer: number) {
      view().setUint32(countPointer, argumentBytes.length, true);
      view().setUint32(
        sizePointer,
        argumentBytes.reduce((total, argument) => total + argument.length, 0),
        true,
      );
      return ERRNO_SUCCESS;
    },
    args_get(argvPointer: number, bufferPointer: number) {
      let cursor = bufferPointer;
      argumentBytes.forEach((argument, index) => {
        view().setUint32(argvPointer + 4 * index, cursor, true);
        bytes().set(argument, cursor);
        cursor += argument.length;
      });
      return ERRNO_SUCCESS;
    },
    clock_time_get(_clock: number, _precision: bigint, out: number) {
      view().setBigUint64(out, BigInt(Math.round(performance.timeOrigin + performance.now())) * 1_000_000n, true);
      return ERRNO_SUCCESS;
    },
    fd_close(fd: number) {
      return fd <= PREOPEN_FD || files.has(fd) ? ERRNO_SUCCESS : ERRNO_BADF;
    },
    fd_fdstat_get(fd: number, out: number) {
      const data = view();
      // filetype: 2 = character device (stdio), 3 = directory, 4 = regular file.
      data.setUint8(out, fd === PREOPEN_FD ? 3 : fd < PREOPEN_FD ? 2 : 4);
      data.setUint16(out + 2, 0, true);
      data.setBigUint64(out + 8, 0xffffffffn, true);
      data.setBigUint64(out + 16, 0xffffffffn, true);
      return ERRNO_SUCCESS;
    },
    fd_fdstat_set_flags() {
      return ERRNO_SUCCESS;
    },
    fd_prestat_get(fd: number, out: number) {
      if (fd !== PREOPEN_FD) return ERRNO_BADF;
      view().setUint32(out, 0, true);
      view().setUint32(out + 4, 1, true);
      return ERRNO_SUCCESS;
    },
    fd_prestat_dir_name(_fd: number, pointer: number) {
      bytes()[pointer] = 0x2e; // "."
      return ERRNO_SUCCESS;
    },
    fd_read(_fd: number, _iovs: number, _count: number, readPointer: number) {
      view().setUint32(readPointer, 0, true);
      return ERRNO_SUCCESS;
    },
    fd_seek(fd: number, offset: bigint, whence: number, out: number) {
      const file = files.get(fd);
      if (!file) return ERRNO_SPIPE;
      const delta = Number(offset);
      file.position = whence === 0 ? delta : whence === 1 ? file.position + delta : file.size + delta;
      view().setBigUint64(out, BigInt(file.position), true);
      return ERRNO_SUCCESS;
    },
    fd_write(fd: number, iovs: number, count: number, writtenPointer: number) {
      const data = view();
      let total = 0;
      for (let index = 0; index < count; index++) {
        const pointer = data.getUint32(iovs + 8 * index, true);
        const length = data.getUint32(iovs + 8 * index + 4, true);
        const chunk = bytes().subarray(pointer, pointer + length);
        if (fd === 1) output.stdout += decoder.decode(chunk);
        else if (fd === 2) output.stderr += decoder.decode(chunk);
        else {
          const file = files.get(fd);
          if (!file) return ERRNO_BADF;
          if (file.position + length > file.data.length) {
            const grown = new Uint8Array(Math.max(file.data.length * 2, file.position + length));
            grown.set(file.data);
            file.data = grown;
          }
          file.data.set(chunk, file.position);
          file.position += length;
          file.size = Math.max(file.size, file.position);
        }
        total += length;
      }
      data.setUint32(writtenPointer, total, true);
      return ERRNO_SUCCESS;
    },
    path_open(
      _dirFd: number,
      _dirFlags: number,
      pathPointer: number,
      pathLength: number,
      _openFlags: number,
      _rightsBase: bigint,
      _rightsInheriting: bigint,
      _fdFlags: number,
      fdPointer: number,
    ) {
      const fd = nextFd++;
      const name = decoder.decode(bytes().subarray(pathPointer, pathPointer + pathLength));
      files.set(fd, { name, data: new Uint8Array(1 << 16), size: 0, position: 0 });
      view().setUint32(fdPointer, fd, true);
      return ERRNO_SUCCESS;
    },
    proc_exit(code: number) {
      throw new ProcessExit(code);
    },
  };

  const instance = new WebAssembly.Instance(module, { wasi_snapshot_preview1: imports });
  memory = instance.exports.memory as WebAssembly.Memory;
  return {
    instance,
    output,
    setArguments: (args: Uint8Array[]) => {
      argumentBytes = args;
    },
  };
}
