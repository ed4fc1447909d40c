/** The port the local world listens on unless ESPLORA_PORT says otherwise (the wallet's regtest default). */
export const DEFAULT_ESPLORA_PORT = 3002;
