/** What `p` is rejected with; a test that expected a rejection fails when it resolves. */
export const rejection = async (p: Promise<unknown>): Promise<unknown> => {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
};

/** What `p` is rejected with, an instance of `type`; a test fails when it resolves or is rejected otherwise. */
export const rejectionOf = async <E>(
  p: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> => {
  const e = await rejection(p);
  if (e instanceof type) return e;
  throw e;
};
