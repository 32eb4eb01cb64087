import { Live } from '../live.js';
import type { OperationSet } from './load.js';

/** The operation tools of one API: the set read at start-up, replaced when the files change (stdio mode). */
export class LiveOperations extends Live<OperationSet> {}
