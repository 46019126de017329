export {
  problemOf,
  type Rendered,
  renderTemplate,
  type TemplateProblem,
  templateProblem,
  unknownVariables,
} from './engine.js';
export { previewTemplate, type TemplatePreview } from './preview.js';
export { SAMPLE_WEBSITE, type SampleOptions, sampleEvent } from './samples.js';
export { type GroupedWebsite, templateScope } from './scope.js';
export {
  isKnownVariable,
  TEMPLATE_MAX_CHARS,
  TEMPLATE_OUTPUT_MAX_CHARS,
  TEMPLATE_VARIABLES,
  type TemplateVariable,
} from './variables.js';
