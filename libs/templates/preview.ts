import type { EventKind } from '../events/index.js';
import { renderTemplate, type TemplateProblem, templateProblem, unknownVariables } from './engine.js';
import { type SampleOptions, sampleEvent } from './samples.js';
import { templateScope } from './scope.js';

export interface TemplatePreview {
  /** What the template renders for the sample event; null when it cannot (the default message is sent). */
  text: string | null;
  problem: TemplateProblem | null;
  /** Variables it reads that no event has: they render empty. */
  unknownVariables: string[];
}

/** The template rendered for a sample event of the kind, as the notifier would render it. */
export function previewTemplate(template: string, type: EventKind, options: SampleOptions): TemplatePreview {
  const invalid = templateProblem(template);
  if (invalid) return { text: null, problem: invalid, unknownVariables: [] };
  const rendered = renderTemplate(template, templateScope(sampleEvent(type, options)));
  return 'problem' in rendered
    ? { text: null, problem: rendered.problem, unknownVariables: unknownVariables(template) }
    : { text: rendered.text, problem: null, unknownVariables: unknownVariables(template) };
}
