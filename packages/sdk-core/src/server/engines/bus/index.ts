// The event bus engine's public face: code outside engines/bus imports the bus only from here
// (tests/architecture/engine-faces.test.ts). The Redis bus stays behind createBus's dynamic import (REDIS_URL only).
export { createBus } from './create-bus.js';
export { InProcessBus } from './in-process-bus.js';
