// Bundled in place of zod's index of locales (about 260 KB: the error messages of some forty languages,
// a quarter of the engine), which zod re-exports as `z.locales` and graphql-mcp never uses: its messages
// are its own, in English. zod's default locale, English, is imported by zod directly and stays.
export { default as en } from 'zod/v4/locales/en.js';
