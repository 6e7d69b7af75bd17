import { allRoutes } from './src/contract/routes.js';
import { buildOpenApiDocument } from './src/server/http/openapi.js';
import { validate, compileErrors } from '@readme/openapi-parser';
const doc = buildOpenApiDocument(allRoutes, { serverUrl: 'http://127.0.0.1:8080' });
console.log(Object.keys(doc.paths).length, Object.keys(doc.components.schemas).join(' '));
const result = await validate(structuredClone(doc) as never);
console.log(result.valid, result.valid ? '' : compileErrors(result), result.warnings);
console.log(JSON.stringify(doc.paths['/v1/persona/list'], null, 1).slice(0, 1500));
