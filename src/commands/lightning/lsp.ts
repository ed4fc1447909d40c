/**
 * The wallet's lightning service (spec 2 servers): change_lsp and get_configured_lsp. Either an HTTP LSP
 * or an LSPS2 LSP's connection string with its token, never both; a new one is used only once it
 * answered. The screens store the settings on the device once the command succeeded.
 */
import { Effect } from "effect";
import { parsePeerAddress } from "../../engine/lightning/socket";
import { lightningServerProblem } from "../../settings/servers";
import { type Handler, outcome, type Needs } from "../context";
import { InvalidInput, ServerUnavailable } from "../../errors";
import { call, nodeOf } from "./lightning";

const K = "settings.servers";

/** The worker's own words for a broken lightning-server rule (screens show the catalogue's). */
const problemText = (p: { readonly field: string; readonly key: string }): string =>
  p.key === `${K}.error_lsp`
    ? "An LSP is required."
    : p.field === "lsp"
      ? "Use either an LSP address or an LSPS connection string with its token, not both."
      : "An LSPS connection string needs its token.";

export const changeLsp: Handler<"ChangeLsp"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const lsp = cmd.lsp.trim();
    const connectionString = cmd.connectionString.trim();
    const token = cmd.token.trim();
    const problem = lightningServerProblem({
      lsp,
      lsps_connection_string: connectionString,
      lsps_token: token,
    });
    if (problem)
      return yield* Effect.fail(new InvalidInput({ message: problemText(problem), key: problem.key }));
    if (connectionString !== "" && parsePeerAddress(connectionString) === null)
      return yield* Effect.fail(
        new InvalidInput({
          message: "The connection string must be pubkey@host:port.",
          key: `${K}.error_lsps_connection_string`,
        }),
      );
    const ln = yield* nodeOf(ctx);
    // The new LSP is asked with the command queue released: a silent one delays only this change.
    yield* ctx
      .outside(
        call(() =>
          ln.changeLsp({
            lsp: lsp || null,
            connectionString: connectionString || null,
            token: token || null,
          }),
        ),
      )
      .pipe(
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

/** The lightning service is the node's: a change waits for a node that is still starting. */
export const lspNeeds: Needs = { ChangeLsp: "lightning", GetConfiguredLsp: "lightning" };
