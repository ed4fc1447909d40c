/** The port the local world listens on unless ESPLORA_PORT says otherwise (the wallet's regtest default). */
export const DEFAULT_ESPLORA_PORT = 3002;
/** The local lightning node's ports for `npm start` (tests use free ones): TCP for nodes and the proxy, and WebSocket. */
export const DEFAULT_LIGHTNING_TCP_PORT = 9735;
export const DEFAULT_LIGHTNING_WS_PORT = 9736;
/** The LNURL service's port for `npm start` (lightning addresses `name@127.0.0.1:3003` that survive a restart). */
export const DEFAULT_LNURL_PORT = 3003;
