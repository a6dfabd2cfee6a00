import { AsyncLocalStorage } from "node:async_hooks";
import { setDriftSink } from "../provider/drift.js";
import { engineProto, grpc } from "./proto.js";

/** The resource each RPC works on, so a message logged during it is shown under that resource. */
export const currentUrn = new AsyncLocalStorage<string>();

/**
 * Sends the core's drift reports to the engine's log as warnings: a plugin's stderr reaches only
 * the engine's own log file, where the dynamic host's reaches the person running the preview.
 * Without an engine address (a test starting the server alone) they stay on stderr.
 */
export function logToEngine(engineAddress: string | undefined): void {
  if (!engineAddress) return;
  const { engrpc, engproto } = engineProto();
  const engine = new engrpc.EngineClient(engineAddress, grpc.credentials.createInsecure());
  setDriftSink((text) => {
    const req = new engproto.LogRequest();
    req.setSeverity(engproto.LogSeverity.WARNING);
    req.setMessage(text.trimEnd());
    req.setUrn(currentUrn.getStore() ?? "");
    req.setEphemeral(false);
    engine.log(req, (err: Error | null) => {
      if (err) process.stderr.write(text);
    });
  });
}
