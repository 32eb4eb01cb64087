import { Kind, valueFromASTUntyped, type DirectiveNode, type OperationDefinitionNode } from 'graphql';

// What the cost estimate reads of a call besides its selections: the variables' values (the call's, else the
// operation's defaults), through which slicing arguments, weighted arguments and @skip/@include conditions may
// be given.

/** The values of one call's variables, each read once. */
export class CallValues {
  private defaultValues: Map<string, unknown> | undefined;
  private allValues: Record<string, unknown> | undefined;

  constructor(
    private readonly operation: OperationDefinitionNode,
    private readonly given: Readonly<Record<string, unknown>> | undefined,
  ) {}

  /** A variable's value: the call's (null included), else its default in the operation; undefined when neither. */
  variable(name: string): unknown {
    if (this.given !== undefined && Object.hasOwn(this.given, name)) return this.given[name];
    return this.defaults().get(name);
  }

  /** Every variable that has a value, for valueFromASTUntyped. */
  all(): Record<string, unknown> {
    if (this.allValues === undefined) {
      this.allValues = {};
      for (const definition of this.operation.variableDefinitions ?? []) {
        const name = definition.variable.name.value;
        const value = this.variable(name);
        if (value !== undefined) this.allValues[name] = value;
      }
    }
    return this.allValues;
  }

  /** Whether @skip/@include leave a selection in; a condition not known here leaves it in. */
  included(directives: readonly DirectiveNode[]): boolean {
    for (const directive of directives) {
      const name = directive.name.value;
      if (name !== 'skip' && name !== 'include') continue;
      const condition = directive.arguments?.find((a) => a.name.value === 'if')?.value;
      let value: unknown;
      if (condition?.kind === Kind.BOOLEAN) value = condition.value;
      else if (condition?.kind === Kind.VARIABLE) value = this.variable(condition.name.value);
      if (typeof value === 'boolean' && value === (name === 'skip')) return false;
    }
    return true;
  }

  private defaults(): Map<string, unknown> {
    if (this.defaultValues === undefined) {
      this.defaultValues = new Map();
      for (const definition of this.operation.variableDefinitions ?? []) {
        if (definition.defaultValue === undefined) continue;
        this.defaultValues.set(definition.variable.name.value, valueFromASTUntyped(definition.defaultValue));
      }
    }
    return this.defaultValues;
  }
}
