import { Kind, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { AnalysedDocument } from './operation.js';

/** The complexity counted, and whether counting stopped early (so the true value is at least that). */
export interface Complexity {
  readonly value: number;
  readonly atLeast: boolean;
}

/**
 * The number of fields the operation selects once every fragment is expanded in place (docs/contract.md):
 * aliases count separately, `__typename` is free, unused fragments cost nothing.
 * Fragment costs are memoised and every sum stops once it passes `limit`, so nested fragments that
 * would expand exponentially are counted in time linear in the document.
 */
export function measureComplexity(
  analysed: AnalysedDocument,
  operation: OperationDefinitionNode,
  limit: number,
): Complexity {
  const cap = limit + 1;
  const fragmentCosts = new Map<string, number>();
  let atLeast = false;

  const costOf = (selectionSet: SelectionSetNode): number => {
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (total >= cap) {
        atLeast = true;
        break;
      }
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== '__typename') total += 1;
        if (selection.selectionSet) total += costOf(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += costOf(selection.selectionSet);
      } else {
        const name = selection.name.value;
        let cost = fragmentCosts.get(name);
        if (cost === undefined) {
          // analyseDocument has checked that the fragment exists and that fragments are acyclic.
          cost = costOf(analysed.fragments.get(name)!.selectionSet);
          fragmentCosts.set(name, cost);
        }
        total += cost;
      }
    }
    if (total > cap) atLeast = true;
    return Math.min(total, cap);
  };

  const value = costOf(operation.selectionSet);
  return { value, atLeast: atLeast && value >= cap };
}
