import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem } from '../api/client.js';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  /** 404 of the thing asked for (or another customer's, which a client is told the same way). */
  notFound: boolean;
  reload: () => Promise<void>;
}

/** Loads with `load` when `key` changes, again every `pollMs` while the tab is visible; keeps the last data. */
export function useLoad<T>(load: () => Promise<T>, key: unknown[], pollMs?: number): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [notFound, setNotFound] = useState(false);
  const latest = useRef(load);
  latest.current = load;
  const run = useCallback(async () => {
    try {
      setData(await latest.current());
      setError(null);
      setNotFound(false);
    } catch (thrown) {
      setError(thrown instanceof Error ? thrown.message : String(thrown));
      setNotFound(thrown instanceof ApiProblem && thrown.status === 404);
    }
  }, []);
  useEffect(() => {
    setData(undefined);
    void run();
    if (!pollMs) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void run();
    }, pollMs);
    return () => clearInterval(timer);
  }, key);
  return { data, error, notFound, reload: run };
}
