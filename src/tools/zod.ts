// The parts of zod the tools' input schemas use, for `import * as z from './zod.js'`. `import { z } from 'zod'`
// would bundle all of zod (its JSON Schema reader, its code generator, 40 locales), which Node parses at every
// start; named re-exports keep only what is used.
export {
  array,
  boolean,
  enum,
  number,
  record,
  strictObject,
  string,
  union,
  unknown,
  type output,
  type ZodObject,
} from 'zod';
