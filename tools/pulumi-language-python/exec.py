# The executor of tools/pulumi-language-python: run with the program's python, it configures
# Pulumi's Python SDK for this run (the engine's settings come as arguments, the configuration in
# PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS) and runs the program in the SDK's stack, as Pulumi's
# pulumi-language-python-exec does. Exit code 32 tells the host the error is already reported.
import argparse
import asyncio
import inspect
import logging
import os
import runpy
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor

BAIL = 32

try:
    import pulumi
    import pulumi.runtime
except ImportError:
    traceback.print_exc()
    print(
        "The Pulumi Python SDK is not installed in the program's environment: list `pulumi` in "
        "requirements.txt and run `pulumi install` (or pip install -r requirements.txt in the virtualenv).",
        file=sys.stderr,
    )
    sys.exit(1)


def user_traceback(program):
    """The traceback from the program's own first frame on: the executor's and runpy's are noise."""
    main = os.path.join(program, "__main__.py") if os.path.isdir(program) else program
    frames = traceback.extract_tb(sys.exc_info()[2])
    for i, frame in enumerate(frames):
        if os.path.abspath(frame.filename) == main:
            return traceback.format_exc(limit=-(len(frames) - i))
    return traceback.format_exc()


def main():
    ap = argparse.ArgumentParser(prog="pulumi-language-python-exec")
    for flag in ("project", "root_directory", "stack", "parallel", "dry_run", "pwd", "monitor", "engine", "tracing", "organization"):
        ap.add_argument("--" + flag)
    ap.add_argument("PROGRAM")
    ap.add_argument("ARGS", nargs="*")
    args = ap.parse_args()

    config = pulumi.runtime.get_config_env()
    if hasattr(pulumi.runtime, "set_all_config"):
        pulumi.runtime.set_all_config(config, pulumi.runtime.get_config_secret_keys_env())
    else:
        for key, value in config.items():
            pulumi.runtime.set_config(key, value)

    settings = {
        "monitor": args.monitor,
        "engine": args.engine,
        "project": args.project,
        "stack": args.stack,
        "parallel": int(args.parallel or 0),
        "dry_run": args.dry_run == "true",
        "organization": args.organization,
        "root_directory": args.root_directory,
    }
    # Older SDKs lack some settings (organization, root_directory): pass what this one accepts.
    accepted = inspect.signature(pulumi.runtime.Settings.__init__).parameters
    settings = pulumi.runtime.Settings(**{k: v for k, v in settings.items() if k in accepted})
    pulumi.runtime.configure(settings)

    sys.argv = [args.PROGRAM] + args.ARGS
    if args.pwd:
        os.chdir(args.pwd)
    program = os.path.abspath(args.PROGRAM)

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    # Blocking work the SDK hands to the loop's executor (RPCs) runs this many at once.
    executor = ThreadPoolExecutor(max_workers=max(settings.parallel or 1, 1) * 4)
    loop.set_default_executor(executor)
    # A failed program leaves futures unobserved on purpose; asyncio's complaints about them
    # would bury the real error.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)

    code = 1
    try:
        loop.run_until_complete(pulumi.runtime.run_in_stack(lambda: runpy.run_path(args.PROGRAM, run_name="__main__")))
        code = 0
    except pulumi.RunError as e:
        pulumi.log.error(str(e))
    except Exception:
        pulumi.log.error("Program failed with an unhandled exception:\n" + user_traceback(program))
        code = BAIL
    finally:
        executor.shutdown(wait=True)
        loop.close()
        sys.stdout.flush()
        sys.stderr.flush()
    sys.exit(code)


main()
