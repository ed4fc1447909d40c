import { type KdfParams, openJson, sealJson, VaultCorrupt } from "../../engine/vault";
import { ImportRejected } from "../../errors";
import type { StateCipher } from "./state-file";

/** Seals state files with the vault; a damaged envelope is refused as a damaged file. */
export const makeStateCipher = (params?: KdfParams): StateCipher => ({
  seal: (value, password) => sealJson(value, password, params),
  open: async (sealed, password) => {
    try {
      return await openJson(sealed, password);
    } catch (e) {
      if (e instanceof VaultCorrupt) {
        // The catalogue's sentence ends the vault's own words with its full stop.
        const what = e.message.replace(/\.$/, "");
        throw new ImportRejected({
          message: `The file is damaged: ${what}.`,
          key: "settings.emergency_kit.import_export.error_damaged",
          values: { what },
        });
      }
      throw e;
    }
  },
});

/** The cipher the wallet uses: PBKDF2-SHA256 at 600,000 iterations or more. */
export const stateCipher: StateCipher = makeStateCipher();
