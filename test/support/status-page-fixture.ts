import { createCustomer, createPackage, type TestApi } from './harness.js';

/** A new organization's customer with paused websites named `websites`, on a published page `slug`. */
export async function publishedPageOf(
  api: TestApi,
  options: { slug: string; title: string; websites: readonly string[] },
): Promise<{
  token: string;
  organizationId: number;
  customerId: number;
  websiteIds: number[];
  pageId: number;
}> {
  const { token, organizationId } = await api.createOrganization(['admin']);
  const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
  const websiteIds: number[] = [];
  for (const name of options.websites) {
    const created = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId, name, url: `https://${name.toLowerCase()}.example.com/`, paused: true },
    });
    if (created.status !== 201) throw new Error(`website ${name} not made: ${created.status}`);
    websiteIds.push(created.body.id);
  }
  const page = await api.request<{ id: number }>('POST', '/api/status-pages', {
    token,
    body: { slug: options.slug, title: options.title, customerId, public: true },
  });
  if (page.status !== 201) throw new Error(`status page not made: ${page.status}`);
  return { token, organizationId, customerId, websiteIds, pageId: page.body.id };
}
