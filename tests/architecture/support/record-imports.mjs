// Module hooks (registered with node:module `register`) that print every bare package a module imports, one
// `IMPORT <package>` line on stderr per package, so a test can tell which dependencies a start-up loads.
const seen = new Set();

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (!/^(node:|[./]|file:|data:)/.test(specifier)) {
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
    if (!seen.has(name)) {
      seen.add(name);
      process.stderr.write(`IMPORT ${name}\n`);
    }
  }
  return result;
}
