/**
 * The cross-field case of issue 20, written for tests and bench:fields: a gut stem-cell / IBD biologist
 * (fields biology and medicine) and a corpus where "STEM" (education), "stem" (plants), "AIDS" and
 * "aids", "LASSO" and "lasso" meet the reader's own topics. Titles and abstracts are written in the style
 * of real papers of each field; none is a real paper.
 */

export interface FieldCaseDocument {
  key: string;
  title: string;
  abstract: string;
  /** The research fields its source would give (arXiv category, journal areas ...). */
  fields: string[];
  /** What the reader of the case is after: 'own' (their topic), 'near' (their fields), 'noise'. */
  relevance: 'own' | 'near' | 'noise';
}

export const STEM_CASE_READER = {
  summary:
    'Intestinal stem cell biology and inflammatory bowel disease (IBD). We study how Lgr5+ stem cells and ' +
    'their niche regenerate the gut epithelium after injury, using intestinal organoids, mouse colitis models ' +
    'and single-cell RNA sequencing, and how failed epithelial repair sustains chronic inflammation in ' +
    "Crohn's disease and ulcerative colitis. Mucosal healing, Wnt signalling, Paneth cells.",
  fields: ['biology', 'medicine'],
};

const doc = (
  key: string,
  fields: string[],
  relevance: FieldCaseDocument['relevance'],
  title: string,
  abstract: string,
): FieldCaseDocument => ({ key, title, abstract, fields, relevance });

export const STEM_CASE_CORPUS: FieldCaseDocument[] = [
  // The reader's own topic (biology).
  doc(
    'bio-1',
    ['biology'],
    'own',
    'Lgr5+ intestinal stem cells drive epithelial regeneration after radiation injury',
    'Intestinal stem cells marked by Lgr5 sustain the renewal of the gut epithelium. Using lineage tracing in mice, we show that surviving Lgr5+ stem cells and dedifferentiating secretory progenitors rebuild crypts after irradiation, and that Wnt signals from the mesenchymal niche are required for this regeneration.',
  ),
  doc(
    'bio-2',
    ['biology'],
    'own',
    'Patient-derived colonic organoids reveal impaired epithelial repair in ulcerative colitis',
    'We derived organoids from colonic biopsies of patients with ulcerative colitis and controls. Organoids from inflamed mucosa kept a transcriptional memory of inflammation, grew slowly and failed to restore barrier function after injury, pointing to a stem cell intrinsic defect in epithelial repair.',
  ),
  doc(
    'bio-3',
    ['biology'],
    'own',
    'A single-cell atlas of the colonic epithelium during DSS colitis and recovery',
    'Single-cell RNA sequencing of 80,000 epithelial cells across dextran sulfate sodium colitis and recovery identifies a regenerative fetal-like stem cell state, Paneth-like secretory cells and the niche signals that restore the crypt after mucosal damage.',
  ),
  doc(
    'bio-4',
    ['biology'],
    'near',
    'Paneth cell metabolism supports the intestinal stem cell niche',
    'Paneth cells provide Wnt ligands, Notch signals and lactate to neighbouring stem cells. We show that glycolytic Paneth cells fuel oxidative phosphorylation in Lgr5+ stem cells and that disrupting this metabolic coupling reduces crypt regeneration in organoids.',
  ),
  // The reader's clinical field (medicine, IBD).
  doc(
    'med-1',
    ['medicine'],
    'own',
    "Mucosal healing as a treatment target in Crohn's disease: a prospective cohort study",
    "In 412 patients with Crohn's disease, endoscopic mucosal healing at one year was associated with fewer hospitalisations, surgeries and steroid courses over five years. We discuss treat-to-target strategies for inflammatory bowel disease.",
  ),
  doc(
    'med-2',
    ['medicine'],
    'own',
    'Vedolizumab versus adalimumab for moderate-to-severe ulcerative colitis',
    'In this randomised trial of 769 adults with ulcerative colitis, vedolizumab achieved higher rates of clinical remission and endoscopic improvement at week 52 than adalimumab, with a similar safety profile. Inflammatory bowel disease therapy, mucosal healing.',
  ),
  doc(
    'med-3',
    ['medicine'],
    'near',
    'Faecal calprotectin to monitor inflammatory bowel disease activity: a systematic review',
    "We reviewed 37 studies of faecal calprotectin in Crohn's disease and ulcerative colitis. Calprotectin correlated with endoscopic inflammation and predicted relapse, supporting its use to monitor mucosal healing during therapy.",
  ),
  doc(
    'med-4',
    ['medicine'],
    'near',
    'Risk of colorectal neoplasia in long-standing ulcerative colitis: a population-based study',
    'Among 9,000 patients with ulcerative colitis followed for a median of 14 years, extensive colitis, primary sclerosing cholangitis and persistent histological inflammation increased the risk of colorectal neoplasia. Surveillance colonoscopy intervals for inflammatory bowel disease are discussed.',
  ),
  doc(
    'med-5',
    ['medicine'],
    'near',
    "Ustekinumab in refractory Crohn's disease: real-world effectiveness and safety",
    "In a multicentre cohort of 1,100 patients with Crohn's disease who failed anti-TNF therapy, ustekinumab induced steroid-free remission in 42% at one year; prior intestinal resection and smoking predicted lower response.",
  ),
  doc(
    'med-6',
    ['medicine'],
    'near',
    'Antiretroviral therapy and opportunistic infections in people living with HIV/AIDS',
    'We followed 3,200 adults with HIV. Early antiretroviral therapy reduced AIDS-defining illnesses and opportunistic infections of the gut, including cytomegalovirus colitis, compared with deferred treatment.',
  ),
  // Education papers about STEM: the noise of issue 20.
  doc(
    'edu-1',
    ['education'],
    'noise',
    'STEM identity and persistence among first-generation college students',
    'We surveyed 2,400 undergraduates in STEM majors. A strong STEM identity, recognition by instructors and undergraduate research experiences predicted persistence in STEM, and first-generation students reported lower STEM identity in their first year.',
  ),
  doc(
    'edu-2',
    ['education'],
    'noise',
    'Project-based learning in integrated STEM classrooms: effects on middle school achievement',
    'A cluster-randomised study in 48 middle schools compared project-based integrated STEM units with standard instruction. STEM achievement and interest in STEM careers rose, most for students from low-income schools.',
  ),
  doc(
    'edu-3',
    ['education'],
    'noise',
    'Women in STEM: mentoring networks and retention in doctoral programmes',
    'Interviews with 96 women doctoral students in STEM fields show that peer mentoring networks and inclusive lab cultures protect against attrition. We propose programme-level interventions to retain women in STEM.',
  ),
  doc(
    'edu-4',
    ['education'],
    'noise',
    'Teacher professional development for STEM education: a meta-analysis',
    'Across 61 studies, professional development for STEM teachers that combined content knowledge, inquiry pedagogy and classroom coaching improved student STEM learning outcomes. Effects were larger in elementary schools.',
  ),
  doc(
    'edu-5',
    ['education'],
    'noise',
    'Informal STEM learning in science museums and after-school programmes',
    'Observations of 300 families in museums and after-school STEM clubs show that hands-on exhibits and facilitator prompts increase STEM talk and engagement. Informal STEM learning complements school instruction.',
  ),
  doc(
    'edu-6',
    ['education'],
    'noise',
    'Teaching aids and classroom technology in rural primary schools',
    'We studied how teachers in 120 rural primary schools use teaching aids, visual aids and low-cost classroom technology. Trained teachers used aids more often, and pupils in their classes read and counted better.',
  ),
  // Other fields: plant stems, statistics with the LASSO.
  doc(
    'agr-1',
    ['agricultural-forestry'],
    'noise',
    'Stem rust resistance genes in bread wheat: a field evaluation',
    'We evaluated 220 wheat lines carrying stem rust resistance genes in field trials across four seasons. Lines combining Sr2 with Sr31 showed durable resistance to stem rust, and stem strength was not reduced.',
  ),
  doc(
    'agr-2',
    ['agricultural-forestry'],
    'noise',
    'Shade avoidance and stem elongation in rice seedlings',
    'Under low red to far-red light, rice seedlings elongate their stems. We identify gibberellin signalling genes that control stem elongation and show that dense planting increases lodging through thin stems.',
  ),
  doc(
    'math-1',
    ['mathematics'],
    'noise',
    'Debiased LASSO inference for high-dimensional regression',
    'We study confidence intervals for coefficients of sparse high-dimensional linear models. A debiased LASSO estimator is asymptotically normal under weaker sparsity conditions, and simulations show correct coverage when the LASSO alone fails.',
  ),
];
