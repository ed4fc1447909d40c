/**
 * LUD-10 `aes` success actions: a secret the service gives only to whoever paid. The key is the payment's
 * preimage (32 bytes); the cipher is AES-256-CBC with PKCS#7 padding, `iv` 16 bytes, both base64.
 */
import { base64 } from "@scure/base";

/** At most 4 kB of base64 ciphertext (LUD-10). */
const MAX_CIPHERTEXT_CHARS = 4096;

export interface AesSuccessAction {
  readonly tag: "aes";
  readonly description: string;
  readonly ciphertext: string;
  readonly iv: string;
}

const bytesOf = (b64: string): Uint8Array<ArrayBuffer> | null => {
  try {
    return new Uint8Array(base64.decode(b64.replace(/\s+/g, "")));
  } catch {
    return null;
  }
};

/** Whether an `aes` action is well formed: a 16-byte iv and whole AES blocks of ciphertext, within 4 kB. */
export const isAesActionReadable = (ciphertext: string, iv: string): boolean => {
  if (ciphertext.length > MAX_CIPHERTEXT_CHARS) return false;
  const c = bytesOf(ciphertext);
  return bytesOf(iv)?.length === 16 && c !== null && c.length > 0 && c.length % 16 === 0;
};

/**
 * The secret of `action`, opened with the payment's preimage; null when it does not open (a wrong key,
 * bad padding, or text that is not UTF-8).
 */
export const openAesSuccessAction = async (
  action: Pick<AesSuccessAction, "ciphertext" | "iv">,
  preimage: Uint8Array,
): Promise<string | null> => {
  const iv = bytesOf(action.iv);
  const data = bytesOf(action.ciphertext);
  if (preimage.length !== 32 || !iv || !data || !isAesActionReadable(action.ciphertext, action.iv))
    return null;
  try {
    const key = await crypto.subtle.importKey("raw", new Uint8Array(preimage), { name: "AES-CBC" }, false, [
      "decrypt",
    ]);
    const plain = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-CBC", iv }, key, data));
    const text = new TextDecoder("utf-8", { fatal: true }).decode(plain);
    return text === "" ? null : text;
  } catch {
    return null;
  }
};
