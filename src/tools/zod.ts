// The parts of zod the tools' input schemas use. `import { z } from 'zod'` would bundle all of zod (its
// JSON Schema reader, its code generator, 40 locales): 450 KB that Node must parse at every start, and
// whose parse alone holds megabytes of memory for the life of the process. Named imports keep 100 KB.
import { array, boolean, number, record, strictObject, string, toJSONSchema, union, unknown } from 'zod';

export type { output, ZodObject } from 'zod';
export const z = { array, boolean, number, record, strictObject, string, toJSONSchema, union, unknown };
