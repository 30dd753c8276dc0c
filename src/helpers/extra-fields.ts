/**
 * The escape hatch for response fields newer than the SDK. Responses keep every field the server
 * sent, but the public types list only the documented ones (no index signature, so a typo such
 * as `group.staus` does not compile). `extraFields(group).new_field` reads the others.
 */

/**
 * Every own field of a response object as received, known or not, typed `unknown`: how to read a
 * field the service added after this SDK was released (`extraFields(group).new_field`). A shallow
 * copy: changing it does not change `value`.
 *
 * @param value A response object (an applicant group, a report, an event, ...).
 */
export function extraFields(value: object): Readonly<Record<string, unknown>> {
  return Object.fromEntries(Object.entries(value));
}
