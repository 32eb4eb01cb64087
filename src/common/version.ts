declare const __VERSION__: string | undefined;

/** The package version, set by the build; unbuilt code (unit tests) says 0.0.0-dev. */
export const VERSION: string = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';
