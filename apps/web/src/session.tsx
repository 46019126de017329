import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import { api, onAuthLost, pastedToken, type Schemas, signedInHere } from './api/client.js';

/** Who uses the app: a person signed in with the session cookie, or a pasted API token. */
export type Caller = { kind: 'person'; user: Schemas['User'] } | { kind: 'token' };

interface Session {
  /** undefined while asking the API, null when signed out. */
  caller: Caller | null | undefined;
  /** The organization requires two-factor of this person, not yet enrolled: only the enrolment opens. */
  mustEnrol: boolean;
  signedIn(caller: Caller): void;
  signOut(): Promise<void>;
  refresh(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside <SessionProvider>');
  return session;
}

/** Staff may change things; a client user (bound to one customer) only looks. A token: the API decides. */
export function canEdit(caller: Caller | null | undefined): boolean {
  if (!caller) return false;
  return caller.kind === 'token' || ['editor', 'admin', 'owner'].includes(caller.user.role);
}

export function clientCustomerId(caller: Caller | null | undefined): number | null {
  return caller?.kind === 'person' && caller.user.role === 'client' ? caller.user.customerId : null;
}

export function SessionProvider({ children }: { children: ComponentChildren }) {
  const [caller, setCaller] = useState<Caller | null | undefined>(undefined);
  const [mustEnrol, setMustEnrol] = useState(false);

  const refresh = useCallback(async () => {
    if (pastedToken.get()) {
      setCaller({ kind: 'token' });
      return;
    }
    const { data, response } = await api.GET('/api/me');
    if (data) setCaller({ kind: 'person', user: data.user });
    else if (response.status === 401 || response.status === 403) {
      signedInHere.set(false);
      setCaller(null);
    } else throw new Error(`GET /api/me answered ${response.status}`);
  }, []);

  // A person signed in: the next visit may read before asking who it is. A pasted token lives in
  // this tab only; the flag goes when the API says signed out (not when it could not be reached).
  useEffect(() => {
    if (caller?.kind === 'person') signedInHere.set(true);
  }, [caller]);

  useEffect(() => {
    refresh().catch(() => setCaller(null));
    return onAuthLost((why) => {
      if (why === 'enrol') setMustEnrol(true);
      else {
        pastedToken.clear();
        signedInHere.set(false);
        setCaller(null);
      }
    });
  }, [refresh]);

  const session: Session = {
    caller,
    mustEnrol,
    signedIn: (next) => {
      setMustEnrol(false);
      setCaller(next);
    },
    async signOut() {
      if (pastedToken.get()) pastedToken.clear();
      else await api.POST('/api/auth/logout');
      signedInHere.set(false);
      setMustEnrol(false);
      setCaller(null);
    },
    refresh,
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
