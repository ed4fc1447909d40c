/**
 * LSPS0 (bLIP-50) JSON-RPC: the message type and feature bit, the error codes and the error an answer
 * carries. Free of the lightning engine, so that commands can tell an LSP's refusals apart without
 * loading it (the transport itself is `lsps0.ts`).
 */
export const LSPS_MESSAGE_TYPE = 37913;
/** The feature bit an LSP sets (odd: optional) in its init and node announcement messages. */
export const LSPS_FEATURE_BIT = 729;
/** JSON-RPC's own error codes. */
export const RPC_PARSE_ERROR = -32700;
export const RPC_METHOD_NOT_FOUND = -32601;
export const RPC_INVALID_PARAMS = -32602;
export const RPC_INTERNAL_ERROR = -32603;

/** A JSON-RPC error: the peer's answer to our request, or what a `serve` handler answers with. */
export class LspsRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
