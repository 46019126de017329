import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { previewTemplate } from './preview.js';
import { TEMPLATE_VARIABLES } from './variables.js';

const doc = readFileSync(new URL('../../docs/templates.md', import.meta.url), 'utf8');

/** The doc's fenced blocks in order, with their language. */
const blocks = [...doc.matchAll(/```(\w+)\n([\s\S]*?)\n```/g)].map(([, lang, body]) => ({ lang, body }));

describe('docs/templates.md', () => {
  it('documents every variable a template sees', () => {
    const documented = TEMPLATE_VARIABLES.map(({ path }) => path).filter((path) => !path.includes('[]'));
    expect(documented.filter((path) => !doc.includes(`\`${path}\``))).toEqual([]);
  });

  it('its examples parse, read only documented variables, and render what it shows for the sample website.down', () => {
    const examples = blocks.flatMap((block, i) =>
      block.lang === 'liquid' ? [{ block, next: blocks[i + 1] }] : [],
    );
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const { block, next } of examples) {
      const preview = previewTemplate(block.body ?? '', 'website.down', {
        organizationId: 1,
        incidentLink: (id) => `https://webmon.example.com/incidents/${id}`,
        grouped: block.body?.includes('group'),
        at: new Date('2025-03-01T02:14:00Z'),
      });
      expect(preview.problem, block.body).toBeNull();
      expect(preview.unknownVariables, block.body).toEqual([]);
      if (next?.lang === 'text') expect(preview.text).toBe(next.body);
    }
  });
});
