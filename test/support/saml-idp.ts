import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import * as samlify from 'samlify';
import { issue } from './pki-forge.js';

/**
 * A real SAML 2.0 identity provider on 127.0.0.1 for tests: samlify in IdP mode with a key pair
 * and certificate made at start. It publishes its metadata, takes our AuthnRequest by
 * HTTP-Redirect at `/sso` and answers with the HTTP-POST form a browser would submit to our ACS,
 * for the person it has "signed in". `answer()` makes responses directly too (IdP-initiated,
 * expired, for another audience, unsigned, encrypted), signed and encrypted by samlify.
 */

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';

// samlify refuses to parse without a schema validator; it parses no request here (the IdP reads
// our AuthnRequest itself below), so a well-formedness check is all it is given.
samlify.setSchemaValidator({
  validate: async (xml: string) => {
    new DOMParser({
      errorHandler: { fatalError: (message: string) => Promise.reject(message) },
    }).parseFromString(xml, 'text/xml');
    return 'well-formed';
  },
});

export interface SamlPerson {
  nameId: string;
  nameIdFormat?: string;
  displayName?: string;
  groups: string[];
  /** Where the groups go (Entra ID's claim URI, `memberOf`…). */
  groupsAttribute?: string;
  attributes?: Record<string, string | string[]>;
}

export interface AnswerOptions {
  /** The AuthnRequest answered; null for an IdP-initiated sign-in (no InResponseTo at all). */
  inResponseTo: string | null;
  person?: SamlPerson;
  audience?: string;
  recipient?: string;
  /** When the assertion ends (Conditions and the bearer confirmation); 5 minutes from now by default. */
  notOnOrAfter?: Date;
  /** false: the response is signed but its assertion is not. */
  signAssertion?: boolean;
  encrypt?: boolean;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function attributeStatement(person: SamlPerson): string {
  const attributes: Record<string, string[]> = {
    [person.groupsAttribute ?? 'groups']: person.groups,
    ...(person.displayName ? { displayName: [person.displayName] } : {}),
  };
  for (const [name, value] of Object.entries(person.attributes ?? {}))
    attributes[name] = Array.isArray(value) ? value : [value];
  const lines = Object.entries(attributes)
    .filter(([, values]) => values.length > 0)
    .map(
      ([name, values]) =>
        `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified">${values
          .map(
            (value) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(value)}</saml:AttributeValue>`,
          )
          .join('')}</saml:Attribute>`,
    );
  return lines.length > 0 ? `<saml:AttributeStatement>${lines.join('')}</saml:AttributeStatement>` : '';
}

/** The form an HTML page posts (action and hidden fields), as a browser would read it. */
export function formOf(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form in ${html.slice(0, 200)}`);
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g))
    if (name !== undefined && value !== undefined)
      fields[name] = value.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return { action: action.replace(/&amp;/g, '&'), fields };
}

export class SamlTestIdp {
  readonly certificate: string;
  readonly metadataXml: string;
  /** Who is signed in at the IdP: what `/sso` answers for. */
  person: SamlPerson = { nameId: 'ada@agency.example', groups: [] };
  /** How `/sso` answers beyond the request it answers (encrypted, for another audience…). */
  ssoAnswers: Omit<AnswerOptions, 'inResponseTo'> = {};
  /** The AuthnRequests `/sso` received (their ids), in order. */
  readonly requests: string[] = [];
  private sp: ReturnType<typeof samlify.ServiceProvider> | null = null;
  private spMetadata = '';
  private readonly key: string;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {
    const issued = issue({ commonName: 'test-idp.example' });
    this.certificate = issued.cert;
    this.key = issued.key;
    this.metadataXml = this.idp(false).getMetadata();
  }

  get entityId(): string {
    return `${this.url}/metadata`;
  }

  /**
   * `host`: the name in its URLs (it listens on 127.0.0.1 either way); `localhost` makes it
   * another site than an API on 127.0.0.1, as a real IdP is, for a browser's SameSite rules.
   */
  static async start(host = '127.0.0.1'): Promise<SamlTestIdp> {
    let self: SamlTestIdp | null = null;
    const server = createServer((request, response) => {
      if (!self) return response.writeHead(503).end();
      self.handle(request.url ?? '/').then(
        ({ status, type, body }) => response.writeHead(status, { 'content-type': type }).end(body),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new SamlTestIdp(server, `http://${host}:${(server.address() as AddressInfo).port}`);
    return self;
  }

  /** The SP this IdP answers (our metadata, as its admin would upload it). */
  trust(spMetadataXml: string): void {
    this.spMetadata = spMetadataXml;
    this.sp = samlify.ServiceProvider({ metadata: spMetadataXml });
  }

  /** A base64 SAMLResponse, as samlify signs (and encrypts) it. */
  async answer(options: AnswerOptions): Promise<string> {
    if (!this.sp) throw new Error('trust() the SP first');
    const person = options.person ?? this.person;
    const acs = this.sp.entityMeta.getAssertionConsumerService(
      samlify.Constants.wording.binding.post,
    ) as string;
    const now = new Date();
    const end = options.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
    const sp =
      options.signAssertion === false
        ? samlify.ServiceProvider({
            metadata: this.spMetadata.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"'),
          })
        : this.sp;
    const id = `_${randomBytes(16).toString('hex')}`;
    const values = {
      ID: id,
      AssertionID: `_${randomBytes(16).toString('hex')}`,
      Destination: acs,
      Audience: options.audience ?? this.sp.entityMeta.getEntityID(),
      SubjectRecipient: options.recipient ?? acs,
      Issuer: this.entityId,
      IssueInstant: now.toISOString(),
      StatusCode: samlify.Constants.StatusCode.Success,
      ConditionsNotBefore: new Date(Math.min(now.getTime(), end.getTime() - 60_000)).toISOString(),
      ConditionsNotOnOrAfter: end.toISOString(),
      SubjectConfirmationDataNotOnOrAfter: end.toISOString(),
      NameIDFormat: person.nameIdFormat ?? EMAIL_FORMAT,
      NameID: person.nameId,
      InResponseTo: options.inResponseTo,
    };
    const authn = `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;
    const { context } = await this.idp(options.encrypt ?? false).createLoginResponse(
      sp,
      { extract: {} },
      'post',
      {},
      {
        customTagReplacement: (template: string) => ({
          id,
          context: samlify.SamlLib.replaceTagsByValue(
            template
              .replace('{AuthnStatement}', authn)
              .replace('{AttributeStatement}', attributeStatement(person)),
            values,
          ),
        }),
      },
    );
    return context;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private idp(encrypt: boolean) {
    return samlify.IdentityProvider({
      entityID: `${this.url}/metadata`,
      privateKey: this.key,
      signingCert: this.certificate,
      isAssertionEncrypted: encrypt,
      nameIDFormat: [EMAIL_FORMAT],
      singleLogoutService: [
        { Binding: samlify.Constants.namespace.binding.redirect, Location: `${this.url}/slo` },
      ],
      singleSignOnService: [
        { Binding: samlify.Constants.namespace.binding.redirect, Location: `${this.url}/sso` },
        { Binding: samlify.Constants.namespace.binding.post, Location: `${this.url}/sso` },
      ],
    });
  }

  private async handle(path: string): Promise<{ status: number; type: string; body: string }> {
    const url = new URL(path, this.url);
    if (url.pathname === '/metadata')
      return { status: 200, type: 'application/samlmetadata+xml', body: this.metadataXml };
    if (url.pathname !== '/sso') return { status: 404, type: 'text/plain', body: 'not found' };
    // The HTTP-Redirect binding: deflated, base64, in the query.
    const encoded = url.searchParams.get('SAMLRequest');
    if (!encoded || !this.sp)
      return { status: 400, type: 'text/plain', body: 'no SAMLRequest, or no SP trusted' };
    const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
    const request = new DOMParser().parseFromString(xml, 'text/xml').documentElement as Element;
    const issuer = request.getElementsByTagNameNS(ASSERTION, 'Issuer')[0]?.textContent;
    const acs = this.sp.entityMeta.getAssertionConsumerService(
      samlify.Constants.wording.binding.post,
    ) as string;
    if (
      request.namespaceURI !== PROTOCOL ||
      request.localName !== 'AuthnRequest' ||
      issuer !== this.sp.entityMeta.getEntityID() ||
      request.getAttribute('AssertionConsumerServiceURL') !== acs
    )
      return { status: 400, type: 'text/plain', body: `not an AuthnRequest of the trusted SP: ${xml}` };
    const requestId = request.getAttribute('ID') ?? '';
    this.requests.push(requestId);
    const response = await this.answer({ ...this.ssoAnswers, inResponseTo: requestId });
    const relayState = url.searchParams.get('RelayState') ?? '';
    return {
      status: 200,
      type: 'text/html',
      body: `<!doctype html><form method="post" action="${escapeXml(acs)}"><input type="hidden" name="SAMLResponse" value="${response}"><input type="hidden" name="RelayState" value="${escapeXml(relayState)}"><button>Continue</button></form><script>document.forms[0].submit()</script>`,
    };
  }
}
