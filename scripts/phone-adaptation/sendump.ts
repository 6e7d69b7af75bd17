/**
 * pocketsphinx's quantized mixture weights (`sendump`, PTM/semi-continuous models) as a Sphinx-III `mixture_weights`
 * file for sphinxtrain's `bw`: the logic of sphinxtrain's Python 2 `sendump.py` (each byte << mixw_shift is -log base
 * 1.0001 of a weight), written with the s3 binary header (`s3file.py`).
 */

/** Reads the sendump (little-endian int32 lengths, NUL-terminated header strings) and writes mixture_weights. */
export function sendumpToMixtureWeights(sendump: Buffer): Buffer {
  let offset = 0;
  const int = () => {
    const value = sendump.readInt32LE(offset);
    offset += 4;
    return value;
  };
  const string = (): string | undefined => {
    const length = int();
    if (length === 0) return undefined;
    const text = sendump.toString('latin1', offset, offset + length - 1);
    offset += length;
    return text;
  };
  string(); // title
  const header = new Map<string, number>();
  for (let line = string(); line !== undefined; line = string()) {
    const [key, value] = line.split(/\s+/);
    if (key && value !== undefined && /^\d+$/.test(value)) header.set(key, Number(value));
  }
  let densities = header.get('model_count') ?? 0;
  let senones = header.get('mixture_count') ?? 0;
  const features = header.get('feature_count') ?? 0;
  const shift = header.get('mixw_shift') ?? 10;
  if ((header.get('cluster_count') ?? 0) !== 0) throw new Error('clustered sendump files are not supported');
  densities = int();
  senones = int();
  if (!densities || !senones || !features) throw new Error(`unexpected sendump header (${densities} densities, ${senones} senones, ${features} features)`);
  // Stored as [feature][density][senone]; written as [senone][feature][density].
  const weights = new Float32Array(senones * features * densities);
  for (let feature = 0; feature < features; feature += 1) {
    for (let density = 0; density < densities; density += 1) {
      for (let senone = 0; senone < senones; senone += 1) {
        weights[(senone * features + feature) * densities + density] = Math.pow(1.0001, -(sendump[offset + senone]! << shift));
      }
      offset += senones;
    }
  }
  return s3File([senones, features, densities], weights);
}

/** A Sphinx-III binary parameter file: text header, byte-order magic, dimensions, the total, the values (no checksum). */
function s3File(dimensions: number[], values: Float32Array): Buffer {
  let text = 's3\nversion 1.0\n';
  // The binary part starts on a 4-byte boundary (s3file.py pads before "endhdr").
  const pad = (4 - ((text.length + 'endhdr\n'.length) % 4)) % 4;
  text += `${' '.repeat(pad)}endhdr\n`;
  const head = Buffer.alloc(4 + 4 * dimensions.length + 4);
  head.writeInt32LE(0x11223344, 0);
  dimensions.forEach((dimension, index) => head.writeUInt32LE(dimension, 4 + 4 * index));
  head.writeUInt32LE(values.length, 4 + 4 * dimensions.length);
  return Buffer.concat([Buffer.from(text, 'latin1'), head, Buffer.from(values.buffer, values.byteOffset, values.byteLength)]);
}
