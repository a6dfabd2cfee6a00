import * as nodeModule from "node:module";

// The provider process and the CLI start cold on every run and compile the same modules each time
// (ours, undici, zod). Node's on-disk code cache skips that: about 35 ms of every provider start.
// It is the directory NODE_COMPILE_CACHE names, else one under the OS temp dir, and
// NODE_DISABLE_COMPILE_CACHE=1 turns it off. Optional: Node before 22.1 has no such call.
nodeModule.enableCompileCache?.();
