/**
 * US states, the District of Columbia and the inhabited territories with their USPS codes. The
 * screening-group endpoint wants the state spelled out, so the SDK uses this table to turn a code
 * a caller passed by habit into the name it should send.
 */

/** Every USPS state, district and territory code, paired with its full name. */
export const US_STATES = [
  { code: 'AL', name: 'Alabama' },
  { code: 'AK', name: 'Alaska' },
  { code: 'AZ', name: 'Arizona' },
  { code: 'AR', name: 'Arkansas' },
  { code: 'CA', name: 'California' },
  { code: 'CO', name: 'Colorado' },
  { code: 'CT', name: 'Connecticut' },
  { code: 'DE', name: 'Delaware' },
  { code: 'FL', name: 'Florida' },
  { code: 'GA', name: 'Georgia' },
  { code: 'HI', name: 'Hawaii' },
  { code: 'ID', name: 'Idaho' },
  { code: 'IL', name: 'Illinois' },
  { code: 'IN', name: 'Indiana' },
  { code: 'IA', name: 'Iowa' },
  { code: 'KS', name: 'Kansas' },
  { code: 'KY', name: 'Kentucky' },
  { code: 'LA', name: 'Louisiana' },
  { code: 'ME', name: 'Maine' },
  { code: 'MD', name: 'Maryland' },
  { code: 'MA', name: 'Massachusetts' },
  { code: 'MI', name: 'Michigan' },
  { code: 'MN', name: 'Minnesota' },
  { code: 'MS', name: 'Mississippi' },
  { code: 'MO', name: 'Missouri' },
  { code: 'MT', name: 'Montana' },
  { code: 'NE', name: 'Nebraska' },
  { code: 'NV', name: 'Nevada' },
  { code: 'NH', name: 'New Hampshire' },
  { code: 'NJ', name: 'New Jersey' },
  { code: 'NM', name: 'New Mexico' },
  { code: 'NY', name: 'New York' },
  { code: 'NC', name: 'North Carolina' },
  { code: 'ND', name: 'North Dakota' },
  { code: 'OH', name: 'Ohio' },
  { code: 'OK', name: 'Oklahoma' },
  { code: 'OR', name: 'Oregon' },
  { code: 'PA', name: 'Pennsylvania' },
  { code: 'RI', name: 'Rhode Island' },
  { code: 'SC', name: 'South Carolina' },
  { code: 'SD', name: 'South Dakota' },
  { code: 'TN', name: 'Tennessee' },
  { code: 'TX', name: 'Texas' },
  { code: 'UT', name: 'Utah' },
  { code: 'VT', name: 'Vermont' },
  { code: 'VA', name: 'Virginia' },
  { code: 'WA', name: 'Washington' },
  { code: 'WV', name: 'West Virginia' },
  { code: 'WI', name: 'Wisconsin' },
  { code: 'WY', name: 'Wyoming' },
  { code: 'DC', name: 'District of Columbia' },
  { code: 'AS', name: 'American Samoa' },
  { code: 'GU', name: 'Guam' },
  { code: 'MP', name: 'Northern Mariana Islands' },
  { code: 'PR', name: 'Puerto Rico' },
  { code: 'VI', name: 'U.S. Virgin Islands' },
] as const;

/** A USPS state, district or territory code such as `'CA'`. */
export type UsStateCode = (typeof US_STATES)[number]['code'];
/** A full state, district or territory name such as `'California'`. */
export type UsStateName = (typeof US_STATES)[number]['name'];

const nameByCode: ReadonlyMap<string, UsStateName> = new Map(
  US_STATES.map((state) => [state.code, state.name]),
);
const codeByName: ReadonlyMap<string, UsStateCode> = new Map(
  US_STATES.map((state) => [state.name.toLowerCase(), state.code]),
);

/**
 * The full name for a USPS code, case-insensitively (`'ca'` gives `'California'`), or `undefined`
 * when the code is not a US state, district or territory.
 */
export function stateNameForCode(code: string): UsStateName | undefined {
  return nameByCode.get(code.trim().toUpperCase());
}

/** The USPS code for a full name, case-insensitively (`'new york'` gives `'NY'`), or `undefined`. */
export function stateCodeForName(name: string): UsStateCode | undefined {
  return codeByName.get(name.trim().replace(/\s+/g, ' ').toLowerCase());
}
