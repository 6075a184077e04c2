// The answer size limit at the HTTP edge: an Apollo plugin that charges every resolved field to the
// request's AnswerBudget (src/api/answerBudget.ts), stops resolving once the budget is spent, and
// then answers the one RESPONSE_TOO_LARGE error instead of whatever partial data was built.
import type { ApolloServerPlugin } from '@apollo/server';
import { defaultFieldResolver, OperationTypeNode, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { fieldBytes, type AnswerBudget } from '../api/answerBudget.js';
import type { RequestContext } from '../api/context.js';

export function answerSizeLimit(logger: Logger): ApolloServerPlugin<RequestContext> {
  return {
    serverWillStart({ schema }) {
      stopResolvingOverBudget(schema);
      return Promise.resolve();
    },
    requestDidStart() {
      return Promise.resolve({
        executionDidStart({ contextValue: { budget } }) {
          return Promise.resolve({
            willResolveField({ info }) {
              return (error, result) => {
                if (error) return;
                try {
                  budget.answer(fieldBytes(info, result));
                } catch {
                  // A value that does not serialize fails its field in graphql-js itself.
                }
              };
            },
          });
        },
        willSendResponse({ contextValue: { budget }, response, operationName, operation }) {
          const refusal = budget.exceeded;
          if (!refusal || response.body.kind !== 'single') return Promise.resolve();
          logger.warn(
            {
              operationName,
              limitBytes: budget.limitBytes,
              answeredBytes: budget.answeredBytes,
              readChars: budget.readChars,
            },
            'refused an answer over the size limit',
          );
          // One error, like any other refusal; the fields that failed after it say nothing more. A
          // mutation's write was done before its answer was built: the message says so.
          const mutation = operation?.operation === OperationTypeNode.MUTATION;
          const message = mutation
            ? `The mutation was done; only its answer was refused. ${refusal.message}`
            : refusal.message;
          response.body.singleResult = {
            data: null,
            errors: [{ message, extensions: { code: refusal.code, ...refusal.details } }],
          };
          return Promise.resolve();
        },
      });
    },
  };
}

/**
 * Once a request's budget is spent, each of its fields fails at once, without running its resolver
 * (so nothing more is read from the graph). It fails with a rejected promise, never a thrown error:
 * graphql-js abandons the pending siblings of a field that throws, and their later rejections would
 * go unhandled. A document's mutation fields are left to run: a write does not depend on the size
 * of an earlier one's answer (graphql-js still stops at one whose error reaches the root).
 */
function stopResolvingOverBudget(schema: GraphQLSchema): void {
  const mutationType = schema.getMutationType()?.name;
  for (const type of Object.values(schema.getTypeMap())) {
    if (
      type.name.startsWith('__') ||
      type.name === mutationType ||
      (type as unknown as { [Symbol.toStringTag]: string })[Symbol.toStringTag] !== 'GraphQLObjectType'
    )
      continue;
    for (const field of Object.values(
      (
        type as unknown as { getFields(): Record<string, { resolve?: GraphQLFieldResolver<unknown, unknown> }> }
      ).getFields(),
    )) {
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        const refusal = (context as { budget?: AnswerBudget } | undefined)?.budget?.exceeded;
        return refusal ? Promise.reject(refusal) : resolve(source, args, context, info);
      };
    }
  }
}
