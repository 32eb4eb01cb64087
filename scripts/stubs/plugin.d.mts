import type { Plugin } from 'esbuild';

/** See plugin.mjs. */
export declare const withoutUnused: Plugin;
