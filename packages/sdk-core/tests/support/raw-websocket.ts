import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** A client frame as bytes, masked unless told otherwise (servers must refuse unmasked client frames). */
export function clientFrame(options: { opcode: number; payload: Buffer; fin?: boolean; rsv1?: boolean; masked?: boolean; declaredLength?: number }): Buffer {
  const { opcode, payload, fin = true, rsv1 = false, masked = true } = options;
  const length = options.declaredLength ?? payload.length;
  const first = (fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | (opcode & 0x0f);
  let header: Buffer;
  if (length < 126) header = Buffer.from([first, (masked ? 0x80 : 0) | length]);
  else if (length < 65536) {
    header = Buffer.alloc(4);
    header.writeUInt8(first, 0);
    header.writeUInt8((masked ? 0x80 : 0) | 126, 1);
    header.writeUInt16BE(length, 2);
  } else {
    header = Buffer.alloc(10);
    header.writeUInt8(first, 0);
    header.writeUInt8((masked ? 0x80 : 0) | 127, 1);
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  if (!masked) return Buffer.concat([header, payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((byte, index) => byte ^ mask[index % 4]!));
  return Buffer.concat([header, mask, body]);
}

/** The HTTP upgrade request of a websocket handshake (optionally cut short or with a broken key). */
export function upgradeRequest(url: URL, options: { key?: string; version?: string } = {}): string {
  return [
    `GET ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${options.key ?? randomBytes(16).toString('base64')}`,
    `Sec-WebSocket-Version: ${options.version ?? '13'}`,
    '',
    '',
  ].join('\r\n');
}

/** Opens a TCP connection to the URL's host and port. */
export function rawConnection(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => resolve(socket));
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

/** Completes a handshake by hand and resolves once the 101 arrived (or with the status line of a refusal). */
export async function rawWebSocket(url: URL): Promise<{ socket: Socket; status: string }> {
  const socket = await rawConnection(url);
  socket.write(upgradeRequest(url));
  const status = await new Promise<string>((resolve) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (!received.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      resolve(received.split('\r\n')[0]!);
    };
    socket.on('data', onData);
    socket.once('close', () => resolve(received.split('\r\n')[0] ?? 'closed'));
    setTimeout(() => resolve(received.split('\r\n')[0] || 'no answer'), 5000).unref();
  });
  return { socket, status };
}

/** Resolves when the socket closed (or after `timeoutMs`, destroying it). */
export function closedWithin(socket: Socket, timeoutMs = 3000): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(true);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, timeoutMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
