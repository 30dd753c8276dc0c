/**
 * The catalogues the report generator draws from: employers, payroll providers, gig platforms,
 * banks, one-off income, document kinds, fraud signals and applicants' explanations.
 */

export interface Employer {
  company: string;
  /** What the deposit looks like on a bank statement. */
  descriptor: string;
  address: string;
  titles: readonly string[];
  /** Salaried jobs are paid a fixed annual rate; hourly jobs vary with hours and overtime. */
  payType: 'salary' | 'hourly';
}

export const EMPLOYERS: readonly Employer[] = [
  {
    company: 'Northwind Logistics LLC',
    descriptor: 'NORTHWIND LOGIST PAYROLL PPD',
    address: '4100 Harbor Blvd, Oakland, CA 94607',
    titles: ['Warehouse Supervisor', 'Dispatcher', 'Operations Coordinator'],
    payType: 'hourly',
  },
  {
    company: 'Brightline Health Partners',
    descriptor: 'BRIGHTLINE HEALTH DIR DEP',
    address: '250 Medical Center Dr, Austin, TX 78701',
    titles: ['Registered Nurse', 'Medical Assistant', 'Billing Specialist'],
    payType: 'hourly',
  },
  {
    company: 'Cobalt Software Inc.',
    descriptor: 'COBALT SOFTWARE INC PAYROLL',
    address: '88 King St, Seattle, WA 98104',
    titles: ['Software Engineer', 'Product Designer', 'Support Engineer'],
    payType: 'salary',
  },
  {
    company: 'Riverside Unified School District',
    descriptor: 'RIVERSIDE USD SALARY',
    address: '3380 14th St, Riverside, CA 92501',
    titles: ['Teacher', 'Counselor', 'Administrative Assistant'],
    payType: 'salary',
  },
  {
    company: 'Meridian Retail Group',
    descriptor: 'MERIDIAN RETAIL DIRECT DEP',
    address: '1200 Commerce Pkwy, Columbus, OH 43215',
    titles: ['Store Manager', 'Assistant Manager', 'Merchandiser'],
    payType: 'hourly',
  },
  {
    company: 'Summit Financial Services',
    descriptor: 'SUMMIT FINANCIAL PAYROLL',
    address: '600 Peachtree St NE, Atlanta, GA 30308',
    titles: ['Financial Analyst', 'Loan Officer', 'Accountant'],
    payType: 'salary',
  },
];

export const PAYROLL_PROVIDERS = ['ADP', 'Gusto', 'Paychex', 'Workday', 'Paylocity'] as const;

/** Weekly gig-platform payouts: a common second income stream. */
export const GIGS = [
  { name: 'DoorDash', descriptor: 'DOORDASH DASHER PAYOUT' },
  { name: 'Uber', descriptor: 'UBER TECHNOLOGIES EDI PYMNTS' },
  { name: 'Instacart', descriptor: 'MAPLEBEAR INSTACART SHOPPER' },
] as const;

export const BANKS = [
  'Chase',
  'Bank of America',
  'Wells Fargo',
  'Capital One',
  'Ally Bank',
  'Navy Federal Credit Union',
] as const;

export const NON_RECURRING = [
  { name: 'Tax refund', descriptor: 'IRS TREAS 310 TAX REF', min: 350, max: 3200, count: [1, 1] },
  { name: 'Venmo transfers', descriptor: 'VENMO CASHOUT', min: 40, max: 450, count: [2, 4] },
  { name: 'Zelle transfers', descriptor: 'ZELLE PAYMENT FROM M GARCIA', min: 100, max: 900, count: [1, 3] },
  { name: 'Insurance claim', descriptor: 'STATE FARM CLAIM PMT', min: 600, max: 2500, count: [1, 1] },
] as const;

export const DOCUMENT_TYPES = [
  { type: 'paystub', name: 'paystub' },
  { type: 'bank_statement', name: 'bank_statement' },
  { type: 'w2', name: 'w2' },
  { type: 'offer_letter', name: 'offer_letter' },
] as const;

export const FRAUD_SIGNALS = [
  { type: 'font_mismatch', description: 'Fonts in the amounts differ from the rest of the document.' },
  {
    type: 'edited_metadata',
    description: 'The file was modified by an editing application after it was created.',
  },
  { type: 'math_inconsistency', description: 'Net pay does not equal gross pay minus deductions.' },
  { type: 'template_match', description: 'The layout matches a template sold online.' },
  { type: 'name_mismatch', description: 'The name on the document differs from the applicant name.' },
] as const;

/** Why an applicant without a connected bank says so, phrased as applicants write it. */
export const EXPLANATIONS: Readonly<Record<string, readonly string[]>> = {
  no_income: [
    'I am a full-time student and my parents are paying the rent.',
    'I am retired and pay my expenses from savings.',
    'I am between jobs; my new position starts next month.',
  ],
  no_bank: ['I do not have a bank account. I am paid by check and use a prepaid card.'],
  no_online_banking: ['My credit union does not offer online banking. I can provide printed statements.'],
  share_bank: ['I share a joint account with my co-applicant, who connected it.'],
  bank_cannot_connect: ['My bank kept showing an error when I tried to connect it.'],
  missing_bank: ['My bank is a small local bank that was not in the list.'],
  not_completed: [''],
};
