"""The JVM half of sparkcep: a Spark SQL parser extension (Java sources in this folder).

``python -m sparkcep.clients.jvm.build`` compiles them against the installed pyspark's jars into
``sparkcep/clients/jars/sparkcep-extension.jar``, which ships with the package (a JRE is enough at run
time). ``sparkcep.clients.extension`` is the Python side.
"""
