#!/usr/bin/env node
'use strict';
// The bin (dist/cli.cjs): loads the bundle (dist/server.cjs) with V8's code cache of an earlier start.
//
// Most of a start is V8 compiling the functions that start-up runs. Node's compile cache (turned on below, for
// the bundles loaded later) keeps only what V8 compiles before it runs a file: the top level, not the functions
// it calls. So the bundle is compiled here with node:vm, and the code cache is taken once start-up has run
// (vm.Script#createCachedData: the functions compiled so far included), about a third less time to tools/list.
//
// The cache is a file per bundle content, Node version and architecture, in the directory of Node's compile
// cache (NODE_COMPILE_CACHE, else <tmpdir>/node-compile-cache), under graphql-mcp/. It is code this process
// runs, so it is used only from a directory and file of this user that nobody else can write, and only when the
// checksum written with it matches; it is written to a new file and renamed into place. Anything wrong with
// it (missing, stale, unreadable, refused by V8) only costs the compilation it would have saved, and the cache
// is written again. Like Node's, the caches of earlier versions are left to the temporary directory's clean-up
// (about 1 MB each). NODE_DISABLE_COMPILE_CACHE turns it off, as it does Node's.
const fs = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createRequire, enableCompileCache, wrap } = require('node:module');
const vm = require('node:vm');
const zlib = require('node:zlib');

/** When the cache is written, if the process lives that long; else as it exits. */
const WRITE_AFTER_MS = 2_000;
const HEADER_BYTES = 4;

enableCompileCache?.();
const bundle = join(__dirname, 'server.cjs');
const cache = process.env.NODE_DISABLE_COMPILE_CACHE ? undefined : cachePlace();
if (cache === undefined) {
  require(bundle);
} else {
  run(cache);
}

/** The cache's directory and file, or undefined where none can be kept safely. */
function cachePlace() {
  try {
    // zlib.crc32 is in Node 20.15 and later.
    if (typeof zlib.crc32 !== 'function') return undefined;
    const source = fs.readFileSync(bundle, 'utf8');
    const dir = join(process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'node-compile-cache'), 'graphql-mcp');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!onlyMine(fs.statSync(dir))) return undefined;
    const key = `${zlib.crc32(source).toString(16)}-${process.version}-${process.arch}`;
    return { source, file: join(dir, `server-${key}.cache`) };
  } catch {
    return undefined;
  }
}

function run({ source, file }) {
  const cachedData = read(file);
  // The shebang is not JavaScript; an empty line keeps the bundle's line numbers.
  // The bundle holds no import() (scripts/build.mjs), which a vm.Script could run only with an experimental loader.
  const script = new vm.Script(wrap(source.replace(/^#!.*/, '')), { filename: bundle, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      save(script, file);
    };
    setTimeout(write, WRITE_AFTER_MS).unref();
    process.once('exit', write);
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, __dirname);
}

/** The code cache in `file`, where it is this user's alone and its checksum holds. */
function read(file) {
  let fd;
  try {
    fd = fs.openSync(file, 'r');
    if (!onlyMine(fs.fstatSync(fd))) return undefined;
    const data = fs.readFileSync(fd);
    if (data.length <= HEADER_BYTES) return undefined;
    const body = data.subarray(HEADER_BYTES);
    return data.readUInt32LE(0) === zlib.crc32(body) ? body : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Writes the code cache to a new file, then renames it into place. */
function save(script, file) {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const body = script.createCachedData();
    const header = Buffer.alloc(HEADER_BYTES);
    header.writeUInt32LE(zlib.crc32(body), 0);
    // 'wx': never through a file or link that is already there.
    fs.writeFileSync(temporary, Buffer.concat([header, body]), { flag: 'wx', mode: 0o600 });
    fs.renameSync(temporary, file);
  } catch {
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      // Left for the system's clean-up of its temporary directory.
    }
  }
}

/** Whether only this user can change what `stats` describes (where there are users to tell apart). */
function onlyMine(stats) {
  if (typeof process.getuid !== 'function') return true;
  return stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
}
