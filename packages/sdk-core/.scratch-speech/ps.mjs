import koffi from 'koffi';
import fs from 'node:fs';
let t = performance.now();
const sb = koffi.load('libsphinxbase.so.3');
const ps = koffi.load('libpocketsphinx.so.3');
const ps_args = ps.func('void* ps_args()');
const cmd_ln_init = sb.func('void* cmd_ln_init(void* inout, void* defn, int strict, ...)');
const ps_init = ps.func('void* ps_init(void* config)');
const ps_start_utt = ps.func('int ps_start_utt(void* ps)');
const ps_process_raw = ps.func('int ps_process_raw(void* ps, const int16_t* data, size_t n, int no_search, int full_utt)');
const ps_end_utt = ps.func('int ps_end_utt(void* ps)');
const ps_get_hyp = ps.func('const char* ps_get_hyp(void* ps, _Out_ int32_t* score)');
const ps_get_in_speech = ps.func('uint8_t ps_get_in_speech(void* ps)');
const dir = '/usr/share/pocketsphinx/model/en-us';
const config = cmd_ln_init(null, ps_args(), 1, 'str', '-hmm', 'str', dir + '/en-us', 'str', '-lm', 'str', dir + '/en-us.lm.bin', 'str', '-dict', 'str', dir + '/cmudict-en-us.dict', 'str', '-logfn', 'str', '/dev/null', 'void*', null);
const decoder = ps_init(config);
console.log('init', performance.now() - t, !!decoder);
const wav = fs.readFileSync(process.argv[2]);
const pcm = new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length));
for (let k = 0; k < 2; k++) {
t = performance.now();
ps_start_utt(decoder);
for (let i = 0; i < pcm.length; i += 1600) { const f = pcm.subarray(i, i + 1600); ps_process_raw(decoder, f, f.length, 0, 0); if (i % 16000 === 0) { const s=[0]; console.log(' interim', ps_get_hyp(decoder, s), ps_get_in_speech(decoder)); } }
const t2 = performance.now();
ps_end_utt(decoder);
const score = [0];
console.log('hyp', ps_get_hyp(decoder, score), 'total', (performance.now() - t).toFixed(0), 'final after end', (performance.now() - t2).toFixed(1), 'audio s', pcm.length / 16000);
}
