/** The value `text` holds as JSON, or null when it is not JSON: what a peer sent is read, never thrown on. */
export const jsonOrNull = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};
