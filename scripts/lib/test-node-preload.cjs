// Preloaded into every Node.js process of `npm test` (scripts/test.sh puts it in NODE_OPTIONS
// beside NODE_COMPILE_CACHE): it makes that on-disk code cache serve the engine's runs, of which
// there are some hundreds, each starting a program, a dynamic provider or the plugin, a language
// host and the CLIs. It changes no behaviour of theirs, save one stack no run reads (3.).
"use strict";

// 1. The V8 flag that @pulumi/pulumi sets when its runtime loads (runtime/closure/v8.js), set from
// the start. V8 accepts a cached compile only under the flags it was made with, so the modules a
// process compiled before Pulumi set it (the program's ts-node and TypeScript, the language host's
// protocol stubs) and those compiled after it (a dynamic provider's) refused each other's cache
// and rewrote it at every run: a quarter of all reads in a preview. With the flag from the start
// every process agrees. It allows only V8's %-intrinsics syntax, which no code here uses, and the
// processes that load Pulumi's runtime have it set anyway.
require("node:v8").setFlagsFromString("--allow-natives-syntax");

// 2. The cache written when the process is stopped by a signal, as the engine stops its plugins
// (the dynamic providers and pulumi-resource-cdc): Node writes it only at a normal exit, so theirs
// was never written and every start compiled their modules again. Then the signal does what it
// would have done: Node's default (the process ends by it) unless the process handles it itself.
const nodeModule = require("node:module");
if (typeof nodeModule.flushCompileCache === "function") {
  for (const signal of ["SIGINT", "SIGTERM"]) {
    const flush = () => {
      process.removeListener(signal, flush);
      try {
        nodeModule.flushCompileCache();
      } catch {
        // A cache that cannot be written is only a slower next start.
      }
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, flush);
  }
}

// 3. The stack that @pulumi/pulumi's runtime records on every promise it makes (debuggablePromise,
// runtime/debuggable.js: one per output property of every resource, read only to print a leaked
// promise under PULUMI_DEBUG_PROMISE_LEAKS, which no test sets) is formatted by V8's own format
// instead of through the source-map hook that ts-node installs in a TypeScript program. Mapping
// those frames cost about 7% of the programs' CPU in the pipeline example's test (1.0 of 13.4 s
// over its 11 runs), more in programs with more outputs. Every other stack, an error's or a
// resource's source position, is mapped as before.
const wrappers = new WeakMap(); // a hook -> its wrapper
const hooks = new WeakMap(); // a wrapper -> its hook
let installed;
function wrap(hook) {
  let wrapper = wrappers.get(hook);
  if (!wrapper) {
    wrapper = function prepareStackTrace(error, callsites) {
      const top = callsites[0];
      if (top && top.getFunctionName() === "debuggablePromise" && /[\\/]runtime[\\/]debuggable\.js$/.test(top.getFileName() ?? "")) {
        return `${Error.prototype.toString.call(error)}${callsites.map((site) => `\n    at ${site}`).join("")}`;
      }
      return hook.apply(this, arguments);
    };
    wrappers.set(hook, wrapper);
    hooks.set(wrapper, hook);
  }
  return wrapper;
}
// Read, the hook is its wrapper; written back (code that saves the hook, sets its own and restores
// the saved one), the wrapper stands for its hook again.
Object.defineProperty(Error, "prepareStackTrace", {
  configurable: true,
  enumerable: false,
  get: () => (typeof installed === "function" ? wrap(installed) : installed),
  set: (value) => {
    installed = hooks.get(value) ?? value;
  },
});
