/**
 * The wallet's lightning service (spec 2 servers): change_lsp and get_configured_lsp. Either an HTTP LSP
 * or an LSPS2 LSP's connection string with its token, never both; a new one is used only once it
 * answered. The screens store the settings on the device once the command succeeded.
 */
import { Effect } from "effect";
import { parsePeerAddress } from "../engine/lightning/socket";
import { type Handler, outcome } from "./context";
import { InvalidInput, ServerUnavailable } from "./errors";
import { call, nodeOf } from "./lightning";

const K = "settings.servers";

export const changeLsp: Handler<"ChangeLsp"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const lsp = cmd.lsp.trim();
    const connectionString = cmd.connectionString.trim();
    const token = cmd.token.trim();
    if (lsp !== "" && (connectionString !== "" || token !== "")) {
      return yield* Effect.fail(
        new InvalidInput({
          message: "Use either an LSP address or an LSPS connection string with its token, not both.",
          key: `${K}.lsps_valid_error`,
        }),
      );
    }
    if (lsp === "" && (connectionString === "") !== (token === ""))
      return yield* Effect.fail(
        new InvalidInput({
          message: "An LSPS connection string needs its token.",
          key: `${K}.lsps_valid_error`,
        }),
      );
    if (lsp === "" && connectionString === "")
      return yield* Effect.fail(new InvalidInput({ message: "An LSP is required.", key: `${K}.error_lsp` }));
    if (connectionString !== "" && parsePeerAddress(connectionString) === null)
      return yield* Effect.fail(
        new InvalidInput({
          message: "The connection string must be pubkey@host:port.",
          key: `${K}.error_lsps_connection_string`,
        }),
      );
    const ln = yield* nodeOf(ctx);
    yield* call(() =>
      ln.changeLsp({
        lsp: lsp || null,
        connectionString: connectionString || null,
        token: token || null,
      }),
    ).pipe(
      // The LSP did not answer (or refused the token): the current one stays.
      Effect.mapError(
        () =>
          new ServerUnavailable({
            message: "Failed to make a request to the LSP.",
            key: `${K}.error_lsp_change_failed`,
          }),
      ),
    );
    return outcome(null);
  });

export const getConfiguredLsp: Handler<"GetConfiguredLsp"> = (_cmd, ctx) =>
  Effect.map(nodeOf(ctx), (ln) => {
    const s = ln.lspSettings();
    return outcome({ lsp: s.lsp ?? "", connectionString: s.connectionString ?? "", token: s.token ?? "" });
  });

export const lspHandlers = { ChangeLsp: changeLsp, GetConfiguredLsp: getConfiguredLsp };
