package io.gantry.nodecommon.nvidiasmi;

import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException.Reason;
import java.io.IOException;
import java.io.StringReader;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Parses nvidia-smi's XML with the JDK's parser. The {@code <!DOCTYPE nvidia_smi_log SYSTEM
 * "nvsmi_device_vNN.dtd">} line is accepted but the DTD (which nvidia-smi does not ship) is never
 * loaded, and no external entity is resolved.
 */
final class SmiXmlDocument {
  /** Fails on errors instead of printing them (the JDK's default handler writes to stderr). */
  private static final ErrorHandler RETHROW =
      new ErrorHandler() {
        @Override
        public void warning(SAXParseException e) {}

        @Override
        public void error(SAXParseException e) throws SAXException {
          throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
          throw e;
        }
      };

  private SmiXmlDocument() {}

  /** The root element of {@code xml}; {@code source} names the command in messages. */
  static Element root(String xml, String source) throws NvidiaSmiException {
    try {
      DocumentBuilder builder = factory().newDocumentBuilder();
      builder.setEntityResolver((publicId, systemId) -> new InputSource(new StringReader("")));
      builder.setErrorHandler(RETHROW);
      return builder.parse(new InputSource(new StringReader(xml))).getDocumentElement();
    } catch (SAXException e) {
      throw new NvidiaSmiException(
          Reason.UNPARSEABLE, source + ": not well-formed XML: " + e.getMessage(), e);
    } catch (IOException | ParserConfigurationException e) {
      throw new NvidiaSmiException(
          Reason.UNPARSEABLE, source + ": XML could not be read: " + e.getMessage(), e);
    }
  }

  private static DocumentBuilderFactory factory() throws ParserConfigurationException {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(false);
    f.setValidating(false);
    f.setXIncludeAware(false);
    f.setExpandEntityReferences(false);
    f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    f.setFeature("http://xml.org/sax/features/external-general-entities", false);
    f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
    return f;
  }
}
