/** Reads the clipboard, or null when the browser does not allow it. */
export const readClipboard = async (): Promise<string | null> => {
  try {
    return await navigator.clipboard.readText();
  } catch {
    return null;
  }
};
