// The suppressor's WebAssembly binaries, imported as bytes (esbuild's `with { type: 'bytes' }`): they ship inside the
// built chunk, so no file has to be served and nothing is fetched from elsewhere.
declare module '@sapphi-red/web-noise-suppressor/*.wasm' {
  const bytes: Uint8Array<ArrayBuffer>;
  export default bytes;
}
