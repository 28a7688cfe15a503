/**
 * A page marker. This folder has a page and an endpoint, which the convention allows only when
 * the endpoint answers no GET (nor ANY or a default export): GET /contact falls through to the legacy app, whose
 * old `GET /contact` route renders the form (see server.js), and the form POSTs to endpoint.ts.
 *
 * The library never loads this file; it only notes that it exists.
 */
export default function ContactPage(): null {
  return null;
}
