#!/usr/bin/env node
// A Node.js language host for the Pulumi engine, used only when the machine has no
// `pulumi-language-nodejs` of its own and the Go module proxy cannot serve Pulumi's
// (its module is published only as a pseudo-version, which restricted proxies refuse).
//
// It speaks the same LanguageRuntime gRPC protocol as Pulumi's Go host and runs the
// program the same way: `node @pulumi/pulumi/cmd/run ...` resolved from the program's
// own directory, config in PULUMI_CONFIG, exit code 32 meaning "already reported".
// The engine, the state, the diff and the dynamic-provider host are Pulumi's own.
// GenerateProgram (PCL to TypeScript, for `pulumi import` and `pulumi convert`) is
// tools/pulumi-cdc-codegen's `program` mode, which runs pkg/v3's Node.js generator against the
// engine's schema loader: the generator named by PULUMI_CDC_CODEGEN (scripts/toolchain.sh).
"use strict";

const path = require("node:path");
const { spawn, execFile } = require("node:child_process");

// Resolve gRPC and the generated stubs through @pulumi/pulumi so that both come from
// the same installation (protobuf message classes are not interchangeable across copies).
const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [process.cwd(), __dirname] }));
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [sdkRoot] }));
const langrpc = require(path.join(sdkRoot, "proto", "language_grpc_pb.js"));
const langproto = require(path.join(sdkRoot, "proto", "language_pb.js"));
const pluginproto = require(path.join(sdkRoot, "proto", "plugin_pb.js"));
const hclproto = require(path.join(sdkRoot, "proto", "codegen", "hcl_pb.js"));
const sdkVersion = require(path.join(sdkRoot, "package.json")).version;

const BAIL_EXIT_CODE = 32;

let engineAddress = process.argv.slice(2).filter((a) => !a.startsWith("-")).pop() ?? "";

function programOptions(info) {
    const raw = info && info.getOptions() ? info.getOptions().toJavaScript() : {};
    return {
        typescript: raw.typescript === undefined ? true : Boolean(raw.typescript),
        tsconfigpath: typeof raw.tsconfig === "string" ? raw.tsconfig : "",
        nodeargs: typeof raw.nodeargs === "string" ? raw.nodeargs.split(/\s+/).filter(Boolean) : [],
    };
}

// The SDK still reads config keys in the old `<namespace>:config:<name>` form.
function configJSON(req) {
    const out = {};
    for (const [key, value] of req.getConfigMap().entries()) {
        const i = key.indexOf(":");
        out[i < 0 ? key : `${key.slice(0, i)}:config:${key.slice(i + 1)}`] = value;
    }
    return JSON.stringify(out);
}

function runArguments(req, runPath) {
    const info = req.getInfo();
    const args = [runPath, "--monitor", req.getMonitorAddress()];
    const add = (flag, value) => {
        if (value) args.push(`--${flag}`, String(value));
    };
    add("engine", engineAddress);
    add("organization", req.getOrganization());
    add("project", req.getProject());
    add("stack", req.getStack());
    add("pwd", info.getProgramDirectory());
    add("root-directory", info.getRootDirectory());
    if (req.getDryrun()) args.push("--dry-run");
    add("query-mode", String(req.getQuerymode()));
    add("parallel", String(req.getParallel()));
    args.push(info.getEntryPoint() || ".", ...req.getArgsList());
    return args;
}

function run(call, callback) {
    const req = call.request;
    const resp = new langproto.RunResponse();
    const info = req.getInfo();
    let runPath;
    try {
        runPath = require.resolve("@pulumi/pulumi/cmd/run", { paths: [info.getProgramDirectory()] });
    } catch {
        resp.setError(`@pulumi/pulumi is not installed for the program in ${info.getProgramDirectory()}: run npm install there`);
        return callback(null, resp);
    }
    const opts = programOptions(info);
    const env = {
        ...process.env,
        PULUMI_CONFIG: configJSON(req),
        PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
    };
    if (opts.typescript) env.PULUMI_NODEJS_TYPESCRIPT = "true";
    if (opts.tsconfigpath) env.PULUMI_NODEJS_TSCONFIG_PATH = opts.tsconfigpath;

    const child = spawn(process.execPath, [...opts.nodeargs, ...runArguments(req, runPath)], {
        cwd: info.getProgramDirectory(),
        env,
        stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", (err) => {
        resp.setError(`could not start node: ${err.message}`);
        callback(null, resp);
    });
    child.on("exit", (code, signal) => {
        if (code === BAIL_EXIT_CODE) resp.setBail(true);
        else if (signal) resp.setError(`Program was terminated by signal ${signal}`);
        else if (code !== 0) resp.setError(`Program exited with non-zero exit code: ${code}`);
        callback(null, resp);
    });
}

// A policy pack (PulumiPolicy.yaml, runtime nodejs), which the engine starts through its language
// host's RunPlugin when there is one (pkg sdk/v3 go/common/resource/plugin/analyzer_plugin.go:
// NewPolicyAnalyzer), as Pulumi's own host does: `node @pulumi/pulumi/cmd/run-policy-pack
// <engine> <pack>` resolved from the pack's directory and run there, its output streamed back (the
// engine reads the analyzer's port from the first line of stdout). The stack's name reaches a
// policy in each resource's URN; Pulumi's host also sets PULUMI_NODEJS_STACK through a proxy of
// the Analyzer protocol, which this host does not have.
function runPlugin(call) {
    const req = call.request;
    const info = req.getInfo();
    const dir = info.getProgramDirectory();
    // The exit code goes out once, last, after all of the pack's output ('close' follows the end
    // of both pipes); a spawn error is followed by 'close' too.
    let ended = false;
    const finish = (code) => {
        if (ended) return;
        ended = true;
        call.write(new langproto.RunPluginResponse().setExitcode(code));
        call.end();
    };
    const fail = (message) => {
        if (!ended) call.write(new langproto.RunPluginResponse().setStderr(Buffer.from(`${message}\n`)));
        finish(1);
    };
    if (req.getKind() !== "analyzer") {
        return fail(`this language host runs policy packs only, not ${req.getKind() || "plugins"} (${dir})`);
    }
    let runPath;
    try {
        runPath = require.resolve("@pulumi/pulumi/cmd/run-policy-pack", { paths: [dir] });
    } catch {
        // The engine recognises this message and tells the user to install the pack's dependencies.
        return fail("Cannot find module '@pulumi/pulumi/cmd/run-policy-pack'");
    }
    const opts = programOptions(info);
    const env = { ...process.env };
    for (const entry of req.getEnvList()) {
        const i = entry.indexOf("=");
        // A value spawn() refuses (a NUL byte) would fail the whole start for one variable.
        if (i > 0 && !entry.includes("\0")) env[entry.slice(0, i)] = entry.slice(i + 1);
    }
    if (opts.typescript) env.PULUMI_NODEJS_TYPESCRIPT = "true";
    if (opts.tsconfigpath) env.PULUMI_NODEJS_TSCONFIG_PATH = opts.tsconfigpath;
    let child;
    try {
        child = spawn(process.execPath, [...opts.nodeargs, runPath, ...req.getArgsList(), dir], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    } catch (err) {
        return fail(`could not start the policy pack in ${dir}: ${err.message}`);
    }
    child.stdout.on("data", (chunk) => call.write(new langproto.RunPluginResponse().setStdout(chunk)));
    child.stderr.on("data", (chunk) => call.write(new langproto.RunPluginResponse().setStderr(chunk)));
    // The engine ends the stream when it is done with the analyzer: the pack goes with it.
    call.on("cancelled", () => child.kill());
    child.on("error", (err) => fail(`could not start node: ${err.message}`));
    child.on("close", (code, signal) => finish(code ?? (signal ? 1 : 0)));
}

// `$PULUMI_CDC_CODEGEN <mode> <loader-target>` with `request` as JSON on stdin: its JSON answer
// ({source, diagnostics}) into `resp` (a GenerateProgramResponse or a GenerateProjectResponse).
function runCodegen(mode, loaderTarget, request, resp, callback) {
    const codegen = process.env.PULUMI_CDC_CODEGEN;
    if (!codegen) {
        return callback({
            code: grpc.status.FAILED_PRECONDITION,
            details: "this language host generates TypeScript with tools/pulumi-cdc-codegen: PULUMI_CDC_CODEGEN names it (source scripts/toolchain.sh and run cdc_toolchain)",
        });
    }
    const child = execFile(codegen, [mode, loaderTarget], { maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) {
            return callback({ code: grpc.status.INTERNAL, details: `pulumi-cdc-codegen ${mode} failed: ${stderr || err.message}` });
        }
        let out;
        try {
            out = JSON.parse(stdout);
        } catch (e) {
            return callback({ code: grpc.status.INTERNAL, details: `pulumi-cdc-codegen ${mode} wrote no JSON: ${e.message}` });
        }
        for (const [name, text] of Object.entries(out.source ?? {})) {
            resp.getSourceMap().set(name, Buffer.from(text, "utf8"));
        }
        for (const d of out.diagnostics ?? []) {
            const diag = new hclproto.Diagnostic()
                .setSeverity(d.severity === "error" ? hclproto.DiagnosticSeverity.DIAG_ERROR : hclproto.DiagnosticSeverity.DIAG_WARNING)
                .setSummary(d.summary ?? "")
                .setDetail(d.detail ?? "");
            if (d.file) {
                const pos = new hclproto.Pos().setLine(d.line ?? 0).setColumn(d.column ?? 0);
                diag.setSubject(new hclproto.Range().setFilename(d.file).setStart(pos).setEnd(pos));
            }
            resp.addDiagnostics(diag);
        }
        callback(null, resp);
    });
    child.stdin.end(JSON.stringify(request));
}

// PCL to TypeScript (`pulumi import`).
function generateProgram(call, callback) {
    const req = call.request;
    runCodegen("program", req.getLoaderTarget(), { source: Object.fromEntries(req.getSourceMap().entries()) }, new langproto.GenerateProgramResponse(), callback);
}

// A PCL directory to a TypeScript project (`pulumi convert --language typescript`).
function generateProject(call, callback) {
    const req = call.request;
    const request = {
        sourceDirectory: req.getSourceDirectory(),
        targetDirectory: req.getTargetDirectory(),
        project: JSON.parse(req.getProject()),
        strict: req.getStrict(),
        localDependencies: Object.fromEntries(req.getLocalDependenciesMap().entries()),
    };
    runCodegen("project", req.getLoaderTarget(), request, new langproto.GenerateProjectResponse(), callback);
}

// A streaming method has no callback: its status goes out through the call (a missing callback
// would throw, which the engine reports only as "Unknown error").
const unimplemented = (name) => (call, callback) => {
    const status = { code: grpc.status.UNIMPLEMENTED, details: `${name} is not supported by this language host` };
    if (typeof callback === "function") callback(status);
    else call.emit("error", status);
};

const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
const handlers = {
    handshake(call, callback) {
        engineAddress = call.request.getEngineAddress() || engineAddress;
        callback(null, new langproto.LanguageHandshakeResponse());
    },
    getRequiredPlugins(_call, callback) {
        callback(null, new langproto.GetRequiredPluginsResponse().setPluginsList([]));
    },
    getRequiredPackages(_call, callback) {
        callback(null, new langproto.GetRequiredPackagesResponse().setPackagesList([]));
    },
    run,
    runPlugin,
    generateProgram,
    generateProject,
    // `pulumi convert` links the local SDKs it generated (for parameterized packages) into the
    // project, and calls Link also when there are none: nothing to link then.
    link(call, callback) {
        if (call.request.getPackagesList().length > 0) {
            return callback({ code: grpc.status.UNIMPLEMENTED, details: "linking local SDKs is not supported by this language host" });
        }
        callback(null, new langproto.LinkResponse().setImportInstructions(""));
    },
    getPluginInfo(_call, callback) {
        callback(null, new pluginproto.PluginInfo().setVersion(sdkVersion));
    },
    installDependencies(call) {
        // Dependencies are installed by the project's own scripts (npm ci); nothing to do here.
        call.end();
    },
    runtimeOptionsPrompts(_call, callback) {
        callback(null, new langproto.RuntimeOptionsResponse().setPromptsList([]));
    },
    about(_call, callback) {
        callback(null, new langproto.AboutResponse().setExecutable(process.execPath).setVersion(process.version));
    },
    getProgramDependencies(_call, callback) {
        callback(null, new langproto.GetProgramDependenciesResponse().setDependenciesList([]));
    },
};
const service = {};
for (const name of Object.keys(langrpc.LanguageRuntimeService)) {
    service[name] = handlers[name] ?? unimplemented(name);
}
server.addService(langrpc.LanguageRuntimeService, service);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
    if (err) {
        console.error(`language host: ${err.message}`);
        process.exit(1);
    }
    // The engine reads the port from the first line of stdout.
    process.stdout.write(`${port}\n`);
});
