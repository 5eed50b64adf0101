/** Everything a REST route module needs to declare its input: `import { routes, Input, Str, … } from '../input/route-kit.js'`. */
export * from './types.js';
export { routes, readInput, type DeclaredRoutes, type DeclaredHandler } from './route.js';
export { ParamsError } from './coerce.js';
