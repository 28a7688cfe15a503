/**
 * Ports https://github.com/h3js/srvx/blob/main/test/node-request-formdata.test.ts onto endpoints mounted
 * by this library (test/fixtures/peers-app, `/srvx/form`), on Express 5 and a bare node:http server.
 * srvx's case guards its body helpers against its own `patchGlobalRequest()`; what remains is that
 * `formData()` reads a request body the bridge hands over, urlencoded or multipart.
 */
import { expect } from 'chai';
import { eachHost } from './hosts';

describe('peers: srvx node-request-formdata.test', function () {
  this.timeout(10_000);

  eachHost('node request body methods', (app) => {
    it('srvx node-request-formdata.test: formData/blob/arrayBuffer/bytes work (urlencoded formData)', async () => {
      const res = await fetch(`${app().url}/srvx/form`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=alice',
      });
      const text = await res.text();
      expect(res.status, text).to.equal(200);
      expect(text).to.equal('alice');
    });

    it('srvx node-request-formdata.test: formData/blob/arrayBuffer/bytes work (multipart formData)', async () => {
      const form = new FormData();
      form.set('name', 'alice');
      form.set('file', new Blob(['contents']), 'a.txt');
      const res = await fetch(`${app().url}/srvx/form`, { method: 'POST', body: form });
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('alice');
    });
  });
});
