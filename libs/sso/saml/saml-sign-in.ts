import type { SsoFlowStore } from '../flow-store.js';
import type { IdentityProvider } from '../identity-provider.schema.js';
import type { SsoAttempt, SsoOutcome, SsoRefusalReason, SsoSignIn } from '../sso-sign-in.js';
import type { SamlAssertionLedger } from './assertion-ledger.js';
import { parseIdpMetadata, serviceProviderMetadata } from './metadata.js';
import {
  type AuthnRequestForm,
  authnRequest,
  CLOCK_SKEW_MS,
  SamlRefusal,
  type SamlSpSettings,
  validateResponse,
} from './service-provider.js';
import type { ServiceProviderKeys } from './sp-keys.js';

export interface SamlSignInDeps {
  keys: ServiceProviderKeys;
  ledger: SamlAssertionLedger;
  flows: SsoFlowStore;
  completion: SsoSignIn;
  /** Our absolute entity id (the metadata URL) and ACS URL for a provider. */
  urls(providerId: number): { entityId: string; acsUrl: string };
}

/** A refusal with what went wrong in words, for the operator's log (the person sees the reason only). */
export interface SamlRefused {
  outcome: Extract<SsoOutcome, { outcome: 'refused' }>;
  detail: string;
}

/**
 * SAML 2.0 sign-in, SP-initiated or (when the provider allows it) IdP-initiated, in two steps:
 * the IdP's cross-site POST to the ACS is validated (signature, issuer, audience, Recipient,
 * Destination, validity) and its assertion id remembered against replay; the browser is then
 * sent to a same-site GET, where its Lax flow cookie comes along and proves it started the
 * request the assertion answers (InResponseTo). Only then is the person signed in, by the
 * completion OIDC's callback ends in too.
 */
export class SamlSignIn {
  constructor(private readonly deps: SamlSignInDeps) {}

  /** Our SP metadata for this provider: entity id, ACS, and our certificate (to encrypt to). */
  async metadata(provider: IdentityProvider): Promise<string> {
    const { entityId, acsUrl } = this.deps.urls(provider.id);
    const certificate = await this.deps.keys.certificate(provider.organizationId, provider.id);
    const wantsSigned = provider.saml ? this.idpOf(provider).wantsSignedRequests : false;
    return serviceProviderMetadata({
      entityId,
      acsUrl,
      encryptionCert: certificate,
      signingCert: wantsSigned ? certificate : null,
    });
  }

  /**
   * An AuthnRequest, by HTTP-Redirect (the URL to send the browser to) or, for an IdP that takes
   * only HTTP-POST, the form to post to it; the flow is kept bound to the browser either way.
   */
  async start(
    provider: IdentityProvider,
    flow: { binding: string; next: string },
  ): Promise<{ location: string } | { form: AuthnRequestForm }> {
    const request = await authnRequest(await this.settings(provider));
    // The request id is the flow's state: the assertion's (signed) InResponseTo names it.
    await this.deps.flows.begin(request.requestId, flow.binding, {
      providerId: provider.id,
      nonce: '',
      codeVerifier: '',
      next: flow.next,
    });
    return 'form' in request ? { form: request.form } : { location: request.redirectUrl };
  }

  /** The ACS POST: a handover token for the GET that follows, or the refusal. */
  async receive(
    provider: IdentityProvider,
    samlResponse: string,
    attempt: SsoAttempt,
  ): Promise<{ handover: string } | SamlRefused> {
    const refuse = async (reason: SsoRefusalReason, detail: string): Promise<SamlRefused> => ({
      outcome: (await this.deps.completion.refuse(provider, reason, attempt)) as SamlRefused['outcome'],
      detail,
    });
    if (!provider.enabled) return refuse('provider-disabled', 'The provider is disabled');
    let settings: SamlSpSettings;
    try {
      settings = await this.settings(provider);
    } catch (error) {
      return refuse('provider-error', (error as Error).message);
    }
    try {
      const assertion = await validateResponse(settings, samlResponse);
      if (assertion.inResponseTo === null && !provider.saml?.allowIdpInitiated)
        return refuse(
          'idp-initiated-not-allowed',
          'IdP-initiated sign-in (an assertion answering no request of ours) is off for this provider',
        );
      const first = await this.deps.ledger.firstUse(
        settings.idp.entityId,
        assertion.assertionId,
        assertion.expiresAt,
        CLOCK_SKEW_MS,
      );
      if (!first)
        return refuse('assertion-replayed', `Assertion ${assertion.assertionId} was presented before`);
      const handover = await this.deps.ledger.hold({
        providerId: provider.id,
        inResponseTo: assertion.inResponseTo,
        identity: {
          ...assertion.identity,
          groups: [...assertion.identity.groups],
          claims: { ...assertion.identity.claims },
        },
      });
      return { handover };
    } catch (error) {
      if (!(error instanceof SamlRefusal)) throw error;
      return refuse(error.reason, error.message);
    }
  }

  /**
   * The GET after the ACS: the assertion handed over, the request it answers taken from the
   * flows of this browser (once), then the person signed in. `next` is where the app goes.
   */
  async finish(
    provider: IdentityProvider,
    handover: string,
    binding: string | undefined,
    attempt: SsoAttempt,
  ): Promise<{ outcome: SsoOutcome; next: string; detail?: string }> {
    const held = await this.deps.ledger.take(handover);
    if (!held || held.providerId !== provider.id)
      return {
        outcome: await this.deps.completion.refuse(provider, 'sign-in-expired', attempt),
        next: '/',
        detail: 'No validated assertion waits under this handover (used, expired or unknown)',
      };
    let next = '/';
    if (held.inResponseTo !== null) {
      const flow = await this.deps.flows.take(held.inResponseTo, binding);
      // Unknown, used, expired, another provider's or started in another browser.
      if (!flow || flow.providerId !== provider.id)
        return {
          outcome: await this.deps.completion.refuse(provider, 'sign-in-expired', attempt),
          next,
          detail: 'The assertion answers no sign-in this browser started (InResponseTo)',
        };
      next = flow.next;
    }
    return {
      outcome: await this.deps.completion.complete(provider, held.identity, { ...attempt, next }),
      next,
    };
  }

  private idpOf(provider: IdentityProvider) {
    if (!provider.saml) throw new SamlRefusal('provider-error', 'The provider is not a SAML provider');
    try {
      return parseIdpMetadata(provider.saml.metadataXml);
    } catch (error) {
      // The provider's settings, not its reachability: what its admin must fix.
      throw new SamlRefusal('provider-error', `The IdP's metadata ${(error as Error).message}`);
    }
  }

  private async settings(provider: IdentityProvider): Promise<SamlSpSettings> {
    const { entityId, acsUrl } = this.deps.urls(provider.id);
    return {
      idp: this.idpOf(provider),
      spEntityId: entityId,
      acsUrl,
      keys: await this.deps.keys.keyPair(provider.organizationId, provider.id),
      groupsAttribute: provider.saml?.groupsAttribute ?? null,
    };
  }
}
