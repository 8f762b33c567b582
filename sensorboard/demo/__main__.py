import json
import sys

from sensorboard.demo import build

for item in build(sys.argv[1]):
    print(json.dumps(item))
