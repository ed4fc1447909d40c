/** What `p` is rejected with; a test that expected a rejection fails when it resolves. */
export const rejection = async (p: Promise<unknown>): Promise<unknown> => {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
};
