import { describe, expect, it } from 'vitest';
import { renderTemplate, templateProblem, unknownVariables } from './engine.js';
import { TEMPLATE_OUTPUT_MAX_CHARS } from './variables.js';

const render = (template: string, scope: Record<string, unknown> = {}) => renderTemplate(template, scope);

describe('template engine', () => {
  it('renders Liquid over plain data with filters, conditions and loops', () => {
    const scope = {
      website: { name: 'Shop' },
      event: { createdAt: '2024-03-01T10:05:00.000Z' },
      group: [{ name: 'A' }, { name: 'B' }],
    };
    expect(
      render(
        '{{ website.name | upcase }} at {{ event.createdAt | date: "%H:%M" }}{% if group %}: {% for s in group %}{{ s.name }}{% unless forloop.last %}, {% endunless %}{% endfor %}{% endif %}',
        scope,
      ),
    ).toEqual({ text: 'SHOP at 10:05: A, B' });
    // Dates in UTC unless the template names a zone.
    expect(render('{{ event.createdAt | date: "%H:%M", "Europe/Berlin" }}', scope)).toEqual({
      text: '11:05',
    });
    // A variable the data lacks renders empty (strictVariables off).
    expect(render('[{{ nothing.here }}]')).toEqual({ text: '[]' });
  });

  it('names the line and column of a syntax error', () => {
    expect(templateProblem('ok')).toBeNull();
    expect(templateProblem('Line one\n{% if status == "down" %}down')).toEqual({
      message: 'line 2, column 1: tag {% if status == "down" %} not closed',
      line: 2,
      column: 1,
    });
    expect(templateProblem('{{ website.name | shout }}')).toMatchObject({
      message: 'line 1, column 1: undefined filter: shout',
    });
    expect(templateProblem('a\n  {{ website.name }')?.line).toBe(2);
    expect(templateProblem('{% frobnicate %}')?.message).toMatch(/tag "frobnicate" not found/);
  });

  it('reads no files: include, render and layout are refused when the template is written', () => {
    for (const tag of ['include', 'render', 'layout'])
      expect(templateProblem(`x\n{% ${tag} "/etc/passwd" %}`)).toEqual({
        message: `line 2, column 1: the ${tag} tag is not available: a template cannot read other templates or files`,
        line: 2,
        column: 1,
      });
  });

  it('walks own properties of plain data only', () => {
    const scope = { website: { name: 'Shop' } };
    expect(
      render(
        '{{ website.constructor }}|{{ website.__proto__ }}|{{ website.toString }}|{{ website.hasOwnProperty }}',
        scope,
      ),
    ).toEqual({ text: '|||' });
  });

  it('stops a render that runs too long or builds too much, and cuts long output', () => {
    const loop = render('{% for i in (1..10000000) %}{{ i }}{% endfor %}');
    expect(loop).toMatchObject({ problem: { message: expect.stringMatching(/limit exceeded/) } });
    const doubling = render(
      '{% assign s = "xx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}',
    );
    expect(doubling).toMatchObject({ problem: { message: expect.stringMatching(/limit exceeded/) } });
    const long = render('{% for i in (1..2000) %}abc{% endfor %}');
    expect('text' in long && long.text.length).toBe(TEMPLATE_OUTPUT_MAX_CHARS);
    expect('text' in long && long.text.endsWith('…')).toBe(true);
  });

  it('refuses a template over its length when parsing', () => {
    expect(templateProblem('x'.repeat(10_001))?.message).toMatch(/at most 10000 characters/);
  });

  it('lists the variables no event has, not the documented ones nor loop variables', () => {
    expect(
      unknownVariables(
        '{{ website.name }} {{ website.nmae }} {{ sumary.title }} {{ group.size }} {{ group.first.name }} {{ group[0].url }} {% for s in group %}{{ s.name }}{% endfor %} {{ dns.current[0] }} {{ result.checks.first.outcome }} {{ status.size }} {% assign x = 1 %}{{ x }}',
      ),
    ).toEqual(['website.nmae', 'sumary.title']);
    expect(unknownVariables('{{ group[0].colour }} {{ website.name.first }}')).toEqual([
      'group[0].colour',
      'website.name.first',
    ]);
    expect(unknownVariables('{% if x')).toEqual([]);
  });
});
