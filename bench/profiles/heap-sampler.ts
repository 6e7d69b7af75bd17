// Profiling helper: `--import ./heap-sampler.ts`; the first SIGUSR2 starts sampling allocations that survive
// young-generation GCs (promoted garbage included; every allocation with PALAVER_HEAP_ALL=1), the second writes
// `<PALAVER_HEAP_PROFILE>.heapprofile`.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
let sampling = false;
process.on('SIGUSR2', () => {
  if (!sampling) {
    sampling = true;
    void session.post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: process.env.PALAVER_HEAP_ALL === '1',
    } as never);
    return;
  }
  void session.post('HeapProfiler.stopSampling').then((result) => {
    writeFileSync(`${process.env.PALAVER_HEAP_PROFILE ?? '/tmp/heap'}.heapprofile`, JSON.stringify((result as { profile: unknown }).profile));
    process.stderr.write('heap profile written\n');
  });
});
