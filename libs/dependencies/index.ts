export {
  DependencyRepository,
  dependencyIndexes,
  dependencyRevisions,
  type HeldAlert,
} from './dependency.repository.js';
export {
  dependenciesView,
  MAX_PARENTS,
  type ParentRef,
  parentKey,
  parentRef,
  putDependenciesBody,
} from './dependency.schema.js';
export { type DependencyPorts, DependencyService } from './dependency.service.js';
export { DependencyGate, type GatePorts } from './dependency-gate.js';
export { cycleThrough, holdingParents } from './dependency-graph.js';
