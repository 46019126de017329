/** Work of one key one at a time within this process, in order of arrival; a failure does not stop the next. */
export function serializedInProcess<K = number>(): <T>(key: K, work: () => Promise<T>) => Promise<T> {
  const tails = new Map<K, Promise<unknown>>();
  return <T>(key: K, work: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
