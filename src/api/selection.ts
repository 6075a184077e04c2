// What a field's selection asks of its children, for a resolver that reads them in one batch ahead of
// their own resolvers.
import { Kind, valueFromASTUntyped, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * The most characters the selections of the child field `field` ask for through their maxChars
 * argument: 0 when no selection names the field, null when one asks for the whole text. Fragments
 * are followed; a maxChars that is not a whole number from 0 up counts as 0 (its field refuses it).
 */
export function maxCharsSelected(info: GraphQLResolveInfo, field: string): number | null {
  let most = 0;
  let whole = false;
  const visit = (selectionSet: SelectionSetNode | undefined, fragments: Set<string>) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== field) continue;
        const argument = selection.arguments?.find((candidate) => candidate.name.value === 'maxChars');
        const value = argument ? valueFromASTUntyped(argument.value, info.variableValues) : null;
        if (value === null || value === undefined) whole = true;
        else if (Number.isInteger(value) && (value as number) > most) most = value as number;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet, fragments);
      } else if (!fragments.has(selection.name.value)) {
        fragments.add(selection.name.value);
        visit(info.fragments[selection.name.value]?.selectionSet, fragments);
      }
    }
  };
  for (const node of info.fieldNodes) visit(node.selectionSet, new Set());
  return whole ? null : most;
}
