import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import { hasScope } from '../../../libs/contract/scopes.js';
import { api, onAuthLost, pastedToken, type Schemas, signedInHere } from './api/client.js';
import { queryClient } from './api/query.js';

/**
 * Who uses the app, as `GET /api/me` answers: a person signed in with the session cookie, or a
 * pasted API token; either with its organization and scopes.
 */
export type Caller = Schemas['Me'];

interface Session {
  /** undefined while asking the API, null when signed out. */
  caller: Caller | null | undefined;
  /** The organization requires two-factor of this person, not yet enrolled: only the enrolment opens. */
  mustEnrol: boolean;
  /**
   * Someone signed in (a password, an accepted invitation, a pasted token) or turned two-factor on:
   * the enrolment prompt goes (the API asks for it again if it must) and `/api/me` says who calls.
   */
  signedIn(): Promise<Caller | null>;
  signOut(): Promise<void>;
  /** Asks `/api/me` who calls now (null: no one; throws when it did not answer). */
  refresh(): Promise<Caller | null>;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside <SessionProvider>');
  return session;
}

/** Editors and up (or a token with the write scope) change things; viewers and client users only look. */
export function canEdit(caller: Caller | null | undefined): boolean {
  return caller ? hasScope(caller.scopes, 'write') : false;
}

/** Admins and owners (or a token with the admin scope) manage people, packages and tokens, and read the audit log. */
export function isAdmin(caller: Caller | null | undefined): boolean {
  return caller ? hasScope(caller.scopes, 'admin') : false;
}

/** The one customer the caller sees (a client user's, a token's bound to one); null: the whole organization. */
export function clientCustomerId(caller: Caller | null | undefined): number | null {
  if (!caller) return null;
  return caller.kind === 'person' ? caller.user.customerId : caller.token.customerId;
}

export function SessionProvider({ children }: { children: ComponentChildren }) {
  const [caller, setCaller] = useState<Caller | null | undefined>(undefined);
  const [mustEnrol, setMustEnrol] = useState(false);

  // A pasted token is asked about as a session is: the API says its organization and scopes.
  const refresh = useCallback(async () => {
    const { data, response } = await api.GET('/api/me');
    if (data) {
      setCaller(data);
      return data;
    }
    if (response.status !== 401 && response.status !== 403)
      throw new Error(`GET /api/me answered ${response.status}`);
    signedInHere.set(false);
    setCaller(null);
    return null;
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
        queryClient.clear();
        setCaller(null);
      }
    });
  }, [refresh]);

  const session: Session = {
    caller,
    mustEnrol,
    signedIn: () => {
      setMustEnrol(false);
      return refresh();
    },
    async signOut() {
      if (pastedToken.get()) pastedToken.clear();
      else await api.POST('/api/auth/logout');
      signedInHere.set(false);
      setMustEnrol(false);
      // The next person to sign in here sees nothing of what this one read.
      queryClient.clear();
      setCaller(null);
    },
    refresh,
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
