// The parts of zod the tools' input schemas use. `import { z } from 'zod'` would bundle all of zod (its
// JSON Schema reader, its code generator, 40 locales), which Node parses at every start. Named imports keep
// only what is used.
import {
  array,
  boolean,
  enum as enumOf,
  number,
  record,
  strictObject,
  string,
  toJSONSchema,
  union,
  unknown,
} from 'zod';

export type { output, ZodObject } from 'zod';
export const z = {
  array,
  boolean,
  enum: enumOf,
  number,
  record,
  strictObject,
  string,
  toJSONSchema,
  union,
  unknown,
};
